import type { RemoteFile } from '../../../../src-shared/api/file-hosting';
import { ok } from '../../../../src-shared/errors';
import { ApiFailure } from '../../service/api-error';
import type { AppContext } from '../context';
import { notConnected, plainError } from '../errors';
import type { Section } from '../section';
import type { SyncRuntime } from '../sync-runtime';

/** The server's live files: a local, searchable copy refreshed from the listing, and the remote actions. */
export function filesSection(ctx: AppContext, runtime: SyncRuntime): Section {
  const changed = (source: string) =>
    ctx.bus.emit('files.changed', { total: -1, fetchedAt: ctx.listing.filesFetchedAt(source) });
  let lastRefreshFailed = false;

  return {
    name: 'files',
    handlers: {
      'files.query': async (q) => {
        const source = ctx.cacheSource();
        if (!source) return notConnected();
        await runtime.ready();
        const fetchedAt = ctx.listing.filesFetchedAt(source);
        const unlisted = runtime.unlisted(fetchedAt);
        const page = ctx.listing.queryFiles(source, q, unlisted);
        return ok({
          rows: page.rows,
          total: page.total,
          offset: q.offset,
          buckets: ctx.listing.buckets(source, unlisted),
          fetchedAt,
          offline: lastRefreshFailed,
        });
      },
      'files.refresh': async () => {
        const live = ctx.session.live;
        const source = ctx.cacheSource();
        if (!live || !source) return notConnected();
        const files: RemoteFile[] = [];
        // The listing's time is when reading began: a file live before then is in it; one live since
        // is shown from its sync row until the next listing (unlisted-files.ts).
        const at = Date.now();
        try {
          for await (const f of live.client.listAllFiles()) files.push(f);
        } catch (e) {
          lastRefreshFailed = true;
          if (e instanceof ApiFailure) return { ok: false, error: plainError(e.error) };
          throw e;
        }
        ctx.listing.replaceFiles(source, files, at);
        lastRefreshFailed = false;
        changed(source);
        return ok({ count: files.length, fetchedAt: at });
      },
      'files.delete': async (r) => {
        const live = ctx.session.live;
        const source = ctx.cacheSource();
        if (!live || !source) return notConnected();
        const d = await live.client.deleteFile(r.id);
        // GONE means it is already not there: the local copy follows either way.
        if (!d.ok && d.error.code !== 'GONE') return { ok: false, error: plainError(d.error) };
        ctx.listing.removeFile(source, r.id);
        changed(source);
        return ok({ id: r.id });
      },
      'files.uploadFromUrl': async (r) => {
        const live = ctx.session.live;
        const source = ctx.cacheSource();
        if (!live || !source) return notConnected();
        const up = await live.client.uploadFromUrl({
          sourceUrl: r.sourceUrl,
          ...(r.bucket ? { bucket: r.bucket } : {}),
        });
        if (!up.ok) return { ok: false, error: plainError(up.error) };
        ctx.listing.upsertFile(source, up.value);
        changed(source);
        return ok(up.value);
      },
    },
  };
}
