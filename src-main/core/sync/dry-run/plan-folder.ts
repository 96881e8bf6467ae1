import { join } from 'node:path';
import type { Hasher } from '../hash/hasher';
import { ignoreRules } from '../local/ignore-rules';
import { sameStat } from '../local/inspect';
import { listTree } from '../local/list-tree';
import { localSkipReason, type UploadRules } from '../local/local-checks';
import type { FileRow, FolderMode } from '../types';
import type { RemoteCopies } from './remote-copies';

/** What the dry run looks at: a path not yet watched (no rows) or a watched folder (its rows). */
export interface PlanInput {
  /**
   * The folder is not one of the app's yet: adding it adopts a file live in the bucket under the same
   * name with the same bytes (upload/adopt-at-add.ts), so such a file counts as already live.
   */
  newFolder?: boolean;
  path: string;
  bucket: string;
  mode: FolderMode;
  ignore: string;
  followOutsideLinks: boolean;
  /** The folder's rows when it is watched; [] for a path not yet added. */
  rows: readonly FileRow[];
  rules: UploadRules;
  hasher: Hasher;
  remote: RemoteCopies;
  /** Content dedupe on: a copy live under another name is linked, not sent. */
  dedupe: boolean;
}

export interface Example {
  name: string;
  message: string;
}

/** The files of the folder sorted by what a sync would do with them. No upload request is spent. */
export interface FolderPlan {
  upload: { count: number; bytes: number };
  skip: Record<string, { count: number; examples: Example[] }>;
  /** Already live: a row of the folder is LIVE with these bytes; nothing is sent. */
  alreadyLive: { count: number; bytes: number; examples: string[] };
  /**
   * Files whose bytes (size + md5) the bucket already holds, under the same name or another, with no
   * row of this folder: without content dedupe they are sent again (and counted in `upload`).
   */
  onService: {
    count: number;
    bytes: number;
    sameName: number;
    examples: { name: string; liveAs: string }[];
  };
  /** Linked instead of sent (content dedupe on): no request, no rent. */
  linked: { count: number; bytes: number };
  renames: { from: string; to: string }[];
  /** Same bytes at two or more paths of the folder (each is uploaded, unless dedupe links a later one). */
  identical: { md5: string; size: number; paths: string[] }[];
  /** Bytes that leave the service: replaced versions, and old names of renames in a mirror folder. */
  replacedBytes: number;
  /** Deletes the sync will send (replaced versions, mirror renames). */
  deletes: number;
  /** Files that could not be read while planning. */
  unreadable: Example[];
}

const EXAMPLES = 3;

export async function planFolder(input: PlanInput): Promise<FolderPlan> {
  const plan: FolderPlan = {
    upload: { count: 0, bytes: 0 },
    skip: {},
    alreadyLive: { count: 0, bytes: 0, examples: [] },
    onService: { count: 0, bytes: 0, sameName: 0, examples: [] },
    linked: { count: 0, bytes: 0 },
    renames: [],
    identical: [],
    replacedBytes: 0,
    deletes: 0,
    unreadable: [],
  };
  const skip = (name: string, code: string, message: string) => {
    plan.skip[code] ??= { count: 0, examples: [] };
    const s = plan.skip[code];
    s.count++;
    if (s.examples.length < EXAMPLES) s.examples.push({ name, message });
  };
  const rowByName = new Map(input.rows.map((r) => [r.name, r]));
  const seen = new Set<string>();
  const byContent = new Map<string, string[]>();
  const walk = listTree(
    input.path,
    ignoreRules(input.ignore),
    (path, code) =>
      plan.unreadable.push({ name: path, message: `The folder could not be listed (${code}).` }),
    input.rows.length,
    { path: input.path, followOutsideLinks: input.followOutsideLinks },
  );
  const toHash: { name: string; size: number; row: FileRow | undefined }[] = [];
  for await (const batch of walk.batches) {
    for (const { name, seen: s } of batch) {
      seen.add(name);
      if (s.kind === 'skip') skip(name, s.code, s.message);
      if (s.kind !== 'file') continue;
      const local = localSkipReason(name, s.size, input.rules);
      if (local) {
        skip(name, local.code, local.message);
        continue;
      }
      const row = rowByName.get(name);
      // Unchanged since it went live: the engine does not even read it again.
      if (row?.state === 'LIVE' && sameStat(row, s)) {
        live(plan, name, s.size);
        if (row.md5) note(byContent, row.md5, s.size, name);
        continue;
      }
      toHash.push({ name, size: s.size, row });
    }
  }
  // Rows whose path is gone: the sources a rename can come from (prepare.ts does the same match).
  const adopted = new Set<number>();
  const gone = input.rows.filter((r) => r.state === 'LIVE' && !seen.has(r.name) && r.md5 !== null);
  for (const f of toHash) {
    const hashed = await input.hasher.md5(join(input.path, f.name));
    if (!hashed.ok) {
      plan.unreadable.push({ name: f.name, message: hashed.error.message });
      continue;
    }
    const md5 = hashed.value.md5;
    note(byContent, md5, f.size, f.name);
    if (f.row && f.row.remoteMd5 === md5 && f.row.remoteSize === f.size) {
      live(plan, f.name, f.size);
      continue;
    }
    const from = gone.findIndex((r) => r.md5 === md5 && r.size === f.size);
    if (from >= 0) {
      const old = gone.splice(from, 1)[0]!;
      plan.renames.push({ from: old.name, to: f.name });
      if (input.mode === 'mirror' && old.remoteId !== null) {
        plan.deletes++;
        plan.replacedBytes += old.remoteSize ?? 0;
      }
    } else if (f.row?.remoteId != null) {
      // A new version: the old one is deleted once this is live (both modes).
      plan.deletes++;
      plan.replacedBytes += f.row.remoteSize ?? 0;
    }
    const copy = input.remote.find(f.size, md5, f.name);
    if (copy && input.newFolder && !f.row && copy.name === f.name && !adopted.has(copy.id)) {
      adopted.add(copy.id);
      live(plan, f.name, f.size);
      continue;
    }
    if (copy) {
      plan.onService.count++;
      plan.onService.bytes += f.size;
      if (copy.name === f.name) plan.onService.sameName++;
      if (plan.onService.examples.length < EXAMPLES)
        plan.onService.examples.push({ name: f.name, liveAs: copy.url });
      if (input.dedupe) {
        plan.linked.count++;
        plan.linked.bytes += f.size;
        continue;
      }
    }
    plan.upload.count++;
    plan.upload.bytes += f.size;
  }
  for (const [key, paths] of byContent) {
    if (paths.length < 2) continue;
    const [md5, size] = key.split(':');
    plan.identical.push({ md5: md5!, size: Number(size), paths });
  }
  return plan;
}

function live(plan: FolderPlan, name: string, size: number) {
  plan.alreadyLive.count++;
  plan.alreadyLive.bytes += size;
  if (plan.alreadyLive.examples.length < EXAMPLES) plan.alreadyLive.examples.push(name);
}

function note(byContent: Map<string, string[]>, md5: string, size: number, name: string) {
  const key = `${md5}:${size}`;
  const list = byContent.get(key);
  if (list) list.push(name);
  else byContent.set(key, [name]);
}
