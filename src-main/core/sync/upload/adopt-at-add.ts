import { join } from 'node:path';
import type { RemoteFile } from '../../../../src-shared/api/file-hosting';
import { plural } from '../../../../src-shared/domain/words';
import { ApiFailure } from '../../service/api-error';
import type { SyncContext } from '../context';
import type { FileRow, Folder } from '../types';
import { contentKey } from './reconcile';

/**
 * A folder just added whose files are already live in its bucket under the same name (synced before
 * by a `--once` that did not keep it, or by another install): each such file is adopted, LIVE with the
 * remote copy's URL, instead of being sent again. The rule is the reconciliation's (reconcile.ts): one
 * listing of the bucket, a match on name, size and md5, a remote file owned by no other row, the
 * lowest id first. Only rows with a same-name, same-size candidate are read here (the caller holds the
 * folder from the scheduler meanwhile: engine-state `adopting`); a row that does not match goes back to NEW and takes
 * the ordinary way. A listing that fails adopts nothing: the files are uploaded as before.
 */
export async function adoptAtAdd(ctx: SyncContext, folder: Folder): Promise<{ adopted: number }> {
  const rows = newRows(ctx, folder.id);
  if (rows.length === 0) return { adopted: 0 };
  const wanted = new Set(rows.map((r) => r.name));
  const byName = new Map<string, RemoteFile[]>();
  try {
    for await (const f of ctx.client.listAllFiles({ bucket: folder.bucket })) {
      if (!wanted.has(f.name)) continue;
      const list = byName.get(f.name);
      if (list) list.push(f);
      else byName.set(f.name, [f]);
    }
  } catch (e) {
    const message = e instanceof ApiFailure ? e.error.message : String(e);
    ctx.log(
      'adopt-skipped',
      `Could not list bucket ${folder.bucket} to find files already there (${message}); every file of ${folder.path} is uploaded.`,
      { folderId: folder.id },
    );
    return { adopted: 0 };
  }
  const owned = ctx.files.remoteIdsOwned();
  let adopted = 0;
  for (const row of rows) {
    if (ctx.halted()) break;
    const sized = (byName.get(row.name) ?? []).filter((f) => f.size_bytes === row.size && !owned.has(f.id));
    if (sized.length === 0) continue;
    if (!ctx.transition(row.id, 'HASHING', {}, ['NEW'])) continue;
    const hashed = await ctx.hasher.md5(join(folder.path, row.name));
    const match = hashed.ok
      ? sized
          .filter(
            (f) =>
              contentKey(f.name, f.size_bytes, f.hash) ===
              contentKey(row.name, hashed.value.bytes, hashed.value.md5),
          )
          .sort((a, b) => a.id - b.id)[0]
      : undefined;
    if (!hashed.ok || !match || owned.has(match.id)) {
      ctx.transition(row.id, 'NEW', { notBefore: null }, ['HASHING']);
      continue;
    }
    const live = ctx.transition(
      row.id,
      'LIVE',
      {
        md5: hashed.value.md5,
        remoteId: match.id,
        remoteUrl: match.url,
        remoteMd5: match.hash,
        remoteSize: match.size_bytes,
        oldRemoteId: null,
        reasonCode: null,
        reason: null,
      },
      ['HASHING'],
    );
    if (live) {
      owned.add(match.id);
      adopted++;
    }
  }
  if (adopted > 0)
    ctx.log(
      'adopted',
      `${plural(adopted, 'file')} of ${folder.path} ${adopted === 1 ? 'was' : 'were'} already live in bucket ${folder.bucket} (same name, size and md5): adopted, not sent again.`,
      { folderId: folder.id },
    );
  return { adopted };
}

function newRows(ctx: SyncContext, folderId: number): FileRow[] {
  const out: FileRow[] = [];
  let afterId = 0;
  for (;;) {
    const page = ctx.files.list({ folderId, state: 'NEW', afterId, limit: 1000 });
    if (page.length === 0) return out;
    afterId = page[page.length - 1]!.id;
    out.push(...page);
  }
}
