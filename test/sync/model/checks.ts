import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { SettledSummary } from '../../../src-main/core/sync/engine';
import { isPending } from '../../../src-main/core/sync/state/transitions';
import type { FileRow } from '../../../src-main/core/sync/types';
import { until } from '../helpers';
import { type Model, MoveFolder } from './commands';
import { md5Hex, type RunEnv, setWallet, storedUploads } from './run-env';

/** How long a settle may take before the run counts as one that never ends. */
const SETTLE_MS = 60_000;
/** Long enough for the watcher to report the last changes (inotify: a few ms; a busy machine: more). */
const QUIET_MS = 500;

export async function settled(env: RunEnv, what: string): Promise<SettledSummary> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const open = env.h.engine
        .listFiles({ limit: 1000 })
        .filter((r) => isPending(r.state, r.nextRetryAt))
        .map((r) => `${r.name} ${r.state} ${r.reasonCode ?? ''} ${r.reason ?? ''}`);
      reject(new Error(`${what}: not settled after ${SETTLE_MS} ms; pending: ${open.join('; ')}`));
    }, SETTLE_MS);
  });
  try {
    return await Promise.race([env.h.engine.waitUntilSettled(), late]);
  } finally {
    clearTimeout(timer);
  }
}

/** Every file under a folder, by its '/'-separated name. */
function diskFiles(dir: string, prefix = ''): Map<string, Buffer> {
  const out = new Map<string, Buffer>();
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const name = prefix + e.name;
    if (e.isDirectory()) for (const [n, b] of diskFiles(join(dir, e.name), `${name}/`)) out.set(n, b);
    else if (statSync(join(dir, e.name)).isFile()) out.set(name, readFileSync(join(dir, e.name)));
  }
  return out;
}

/** No row is left half way: every row done (LIVE, SKIPPED, DELETED) or FAILED for good with its cause. */
export function noTransientRow(env: RunEnv, when: string): string[] {
  const problems: string[] = [];
  for (const r of env.h.engine.listFiles({ limit: 1000 })) {
    const ok =
      r.state === 'LIVE' ||
      r.state === 'DELETED' ||
      (r.state === 'SKIPPED' && !!r.reasonCode && !!r.reason) ||
      (r.state === 'FAILED' && r.nextRetryAt === null && !!r.reasonCode && !!r.reason);
    if (!ok)
      problems.push(`${when}: ${r.name} is ${r.state} (${r.reasonCode ?? 'no code'}: ${r.reason ?? ''})`);
  }
  const open = env.h.db.prepare('SELECT COUNT(*) AS n FROM sync_journal WHERE settled_at IS NULL').get() as {
    n: number;
  };
  if (open.n > 0) problems.push(`${when}: ${open.n} journal entr(y/ies) still open`);
  return problems;
}

/**
 * After a sequence: the switches back to normal (no faults, the wallet topped up, resumed), the engine
 * that ran the sequence must settle (and leave no row half way); then a restart (its scan sees the disk
 * as it is, whatever the watcher reported) must settle too, and then every invariant must hold:
 * - every row LIVE, SKIPPED with its reason, DELETED, or FAILED for good with its cause; no open intent;
 * - every file on disk of an added folder has a row: LIVE with the disk's md5 and a remote copy of that
 *   name and md5, or SKIPPED/FAILED with a reason; no row other than DELETED lacks its file;
 * - a mirror folder's bucket holds its LIVE rows' copies, plus only what was there before it was added
 *   or what a FAILED row still replaces; an upload-only folder's bucket holds at least its LIVE copies;
 * - nothing was stored twice: per (bucket, name, md5), the service stored at most as many copies as the
 *   sequence wrote that content under that name.
 */
export async function settleAndCheck(env: RunEnv, m: Model): Promise<void> {
  await env.server.admin('PUT', '/faults', { storage_fail_rate: 0, connection_reset_rate: 0 });
  if (m.drained) await setWallet(env, false);
  if (m.paused) env.h.engine.resume();
  const problems: string[] = [];
  // Nothing of a folder that vanished may have been deleted from the service (FOLDER-MISSING).
  for (let slot = 0; slot < env.slots.length; slot++) {
    if (!m.away[slot]) continue;
    if (m.added[slot] && env.slots[slot]!.mode === 'mirror') {
      const ids = new Set<number>();
      for await (const f of env.client.listAllFiles({ bucket: env.slots[slot]!.bucket })) ids.add(f.id);
      for (const r of env.h.engine.listFiles({ folderId: env.folderIds[slot]!, limit: 1000 }))
        if (r.remoteId !== null && r.state !== 'DELETED' && r.state !== 'DELETING' && !ids.has(r.remoteId))
          problems.push(`mirror moved away: ${r.name}'s copy ${r.remoteId} was deleted from the service`);
    }
    await new MoveFolder(slot, true).run(m, env);
  }
  // A folder brought back is found by its runner's next look (1 s, 2 s, 4 s ...): until then it is
  // waiting with a stated cause (FOLDER-MISSING), and the rows are as they were when it vanished.
  const back = () => env.h.engine.listFolders().every((f) => f.problem === null);
  if (!back()) await until('the folders brought back to be found', back, SETTLE_MS + 10_000);
  // The watcher reports in real time: what the last commands did reaches the engine within this.
  await new Promise((r) => setTimeout(r, QUIET_MS));
  await settled(env, 'the engine that ran the sequence');
  problems.push(...noTransientRow(env, 'before the restart'));
  problems.push(...(await checkFolders(env, 'before the restart')));

  await env.restart();
  const summary = await settled(env, 'after a restart');
  if (summary.stopped)
    problems.push(`the engine stopped: ${summary.stopped.code} ${summary.stopped.message}`);
  problems.push(...noTransientRow(env, 'after the restart'));

  problems.push(...(await checkFolders(env, 'after the restart')));

  for (const [key, n] of storedUploads(env)) {
    const allowed = env.writes.get(key) ?? 0;
    if (n > allowed) {
      const [bucket, name, md5] = key.split('\u0000');
      problems.push(`stored ${n} time(s), written ${allowed}: ${bucket}/${name} (${md5})`);
    }
  }
  if (problems.length) throw new Error(problems.join('\n'));
}

/** The disk, the rows and the buckets of the added folders agree (see settleAndCheck). */
async function checkFolders(env: RunEnv, when: string): Promise<string[]> {
  const problems: string[] = [];
  for (let slot = 0; slot < env.slots.length; slot++) {
    const folderId = env.folderIds[slot];
    if (folderId === null || folderId === undefined) continue;
    const s = env.slots[slot]!;
    const rows = new Map<string, FileRow>(
      env.h.engine.listFiles({ folderId, limit: 1000 }).map((r) => [r.name, r]),
    );
    const remote = new Map<number, { name: string; hash: string }>();
    for await (const f of env.client.listAllFiles({ bucket: s.bucket })) remote.set(f.id, f);
    const disk = diskFiles(s.dir);
    for (const [name, bytes] of disk) {
      const r = rows.get(name);
      const md5 = md5Hex(bytes);
      if (!r) problems.push(`${when}: ${s.mode}: ${name} is on disk with no row`);
      else if (r.state === 'LIVE') {
        const copy = r.remoteId === null ? undefined : remote.get(r.remoteId);
        if (r.md5 !== md5)
          problems.push(`${when}: ${s.mode}: ${name} is LIVE with md5 ${r.md5}, the disk has ${md5}`);
        if (!copy)
          problems.push(
            `${when}: ${s.mode}: ${name} is LIVE as ${r.remoteId}, which the bucket does not hold`,
          );
        else if (copy.name !== name || copy.hash !== md5)
          problems.push(
            `${when}: ${s.mode}: ${name}'s remote copy is ${copy.name} ${copy.hash}, the disk has ${md5}`,
          );
      } else if (r.state !== 'SKIPPED' && r.state !== 'FAILED')
        problems.push(`${when}: ${s.mode}: ${name} is on disk and ${r.state}`);
    }
    for (const r of rows.values())
      if (r.state !== 'DELETED' && !disk.has(r.name))
        problems.push(`${when}: ${s.mode}: ${r.name} is ${r.state} but not on disk`);
    const live = new Set([...rows.values()].filter((r) => r.state === 'LIVE').map((r) => r.remoteId));
    if (s.mode === 'mirror') {
      const replaced = new Set(
        [...rows.values()].filter((r) => r.state === 'FAILED').map((r) => r.oldRemoteId),
      );
      for (const [id, f] of remote)
        if (!live.has(id) && !env.preAdd[slot]!.has(id) && !replaced.has(id))
          problems.push(
            `${when}: mirror: the bucket holds ${f.name} (${id}), which no file on disk accounts for`,
          );
    }
  }

  return problems;
}
