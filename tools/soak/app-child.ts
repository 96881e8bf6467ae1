/**
 * The app under the soak, in its own process so that it can be SIGKILLed and its RSS is its own:
 * the sync engine over three folders and the knowledge-entry service, built as the app builds them
 * (one app database, the shared request budgets), with KB edits made by the app itself on a timer.
 * Reads one JSON line (AppChildInput) on stdin (a key never goes on a command line); prints JSON lines:
 * `ready`, the engine's account events, and in `settle` mode one `settled` report, then exits.
 * Stdin closing (the soak gone) ends it like SIGTERM.
 */
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import {
  APP_MIGRATIONS,
  botTokenAccount,
  budgetFor,
  closePools,
  createFileApiClient,
  createKbClient,
  createKbService,
  createSyncEngine,
  type FolderMode,
  type KbService,
  type SecretStore,
  type SyncEngine,
} from '../../src-main/core/internal';
import { openDatabase } from '../../src-main/shared-node/sqlite';
import { type Random, seededRandom } from './random';

export interface AppChildInput {
  baseUrl: string;
  apiKey: string;
  appDir: string;
  folders: { path: string; bucket: string; mode: FolderMode }[];
  kb: { token: string; remoteBotId: number };
  /** `run`: sync and edit until stopped; `settle`: no edits, sync until settled, report, exit. */
  mode: 'run' | 'settle';
  /** Mean pause between two KB edits (run mode). */
  kbEditMs: number;
  seed: number;
}

export interface SettledReport {
  event: 'settled';
  counts: Record<string, number>;
  allDone: boolean;
  /** Rows not LIVE, SKIPPED or DELETED, by name, at most 20. */
  stuck: { folder: string; name: string; state: string; reasonCode: string | null }[];
  /** Every LIVE row: the remote id and md5 it says is online. */
  live: { folder: string; name: string; remoteId: number; md5: string | null }[];
  /** Every SKIPPED row and its reason code. */
  skipped: { folder: string; name: string; code: string | null }[];
  kb: { entries: number; outbox: number; notSynced: number; mismatched: string[] };
}

/** The app keeps bot tokens in the OS keychain; this process stands in for it, in memory. */
function memorySecrets(): SecretStore {
  const m = new Map<string, string>();
  return {
    get: (a) => m.get(a) ?? null,
    set: (a, s) => void m.set(a, s),
    delete: (a) => m.delete(a),
  };
}

const emit = (line: object) => process.stdout.write(`${JSON.stringify(line)}\n`);

async function main(): Promise<void> {
  const input = await readInput();
  const db = openDatabase(join(input.appDir, 'app.sqlite'), APP_MIGRATIONS);
  const client = createFileApiClient({
    baseUrl: input.baseUrl,
    apiKey: input.apiKey,
    budget: budgetFor(input.baseUrl, 'files'),
  });
  const engine = createSyncEngine({ db, client, watch: input.mode === 'run' });
  for (const name of ['paused', 'resumed', 'stopped'] as const)
    engine.on(name, (p) => emit({ event: name, ...p }));

  const secrets = memorySecrets();
  const signing = new Set<number>();
  const kb = createKbService({
    db,
    secrets,
    signing: {
      has: (id) => signing.has(id),
      set: (id) => void signing.add(id),
      remove: (id) => void signing.delete(id),
    },
    onSnapshot: () => undefined,
  });
  const botId = ensureBot(kb, secrets, input);

  let stopping = false;
  const stop = async (code: number) => {
    if (stopping) return;
    stopping = true;
    await engine.stop();
    kb.stop();
    db.close();
    await closePools();
    process.exit(code);
  };
  process.on('SIGTERM', () => void stop(0));
  process.stdin.on('end', () => void stop(0));

  await engine.start();
  for (const f of input.folders) {
    if (engine.listFolders().some((x) => x.path === f.path)) continue;
    const added = await engine.addFolder(f);
    if (!added.ok) throw new Error(`${added.error.code}: ${added.error.message}`);
  }
  kb.start();
  emit({ event: 'ready', pid: process.pid });

  if (input.mode === 'settle') {
    emit(await settle(engine, kb, botId, input));
    await stop(0);
    return;
  }
  void editEntries(kb, botId, seededRandom(input.seed), input.kbEditMs, () => stopping);
}

function ensureBot(kb: KbService, secrets: SecretStore, input: AppChildInput): number {
  const existing = kb.bots().find((b) => b.remoteBotId === input.kb.remoteBotId);
  if (existing) {
    secrets.set(botTokenAccount(existing.id), input.kb.token);
    return existing.id;
  }
  const added = kb.addBot({
    name: 'Soak bot',
    baseUrl: input.baseUrl,
    token: input.kb.token,
    remoteBotId: input.kb.remoteBotId,
  });
  if (!added.ok) throw new Error(`${added.error.code}: ${added.error.message}`);
  return added.value.id;
}

/** Creates, edits and removes entries as an editor would, offline first: the KB loop sends them. */
async function editEntries(
  kb: KbService,
  botId: number,
  random: Random,
  meanMs: number,
  stopped: () => boolean,
): Promise<void> {
  let n = 0;
  while (!stopped()) {
    await new Promise((r) => setTimeout(r, meanMs * (0.5 + random.next())));
    const snap = kb.snapshot(botId);
    if (!snap.ok) continue;
    const live = snap.value.entries.filter((e) => !e.deleted && e.state !== 'conflict');
    const roll = random.next();
    const text = `soak ${process.pid}-${n++} ${random.next().toString(36).slice(2)}`;
    if (live.length < 5 || roll < 0.35) kb.create(botId, { title: `Entry ${text}`, description: text });
    else if (roll < 0.85) {
      const e = random.pick(live);
      kb.edit(e.id, { title: e.title, description: `${e.description.slice(0, 200)} / ${text}` });
    } else kb.remove(random.pick(live).id);
  }
}

async function settle(
  engine: SyncEngine,
  kb: KbService,
  botId: number,
  input: AppChildInput,
): Promise<SettledReport> {
  const summary = await engine.waitUntilSettled();
  const paths = new Map(engine.listFolders().map((f) => [f.id, f.path]));
  const stuck: SettledReport['stuck'] = [];
  const live: SettledReport['live'] = [];
  const skipped: SettledReport['skipped'] = [];
  let afterId = 0;
  for (;;) {
    const rows = engine.listFiles({ afterId, limit: 1000 });
    if (rows.length === 0) break;
    afterId = rows[rows.length - 1]!.id;
    for (const r of rows) {
      const folder = paths.get(r.folderId) ?? '';
      if (r.state === 'LIVE') live.push({ folder, name: r.name, remoteId: r.remoteId!, md5: r.md5 });
      else if (r.state === 'SKIPPED') skipped.push({ folder, name: r.name, code: r.reasonCode });
      else if (r.state !== 'DELETED' && stuck.length < 20)
        stuck.push({ folder, name: r.name, state: r.state, reasonCode: r.reasonCode });
    }
  }
  // Entries: push what is left, then compare the local copy with the server's. A delete waits out its
  // undo window (outbox `notBefore`, 6 s) before any round sends it: wait for that moment, not a clock.
  for (let round = 0; round < 20; round++) {
    await kb.syncNow(botId);
    const left = kb.outbox(botId);
    if (left.length === 0) break;
    const heldUntil = Math.max(0, ...left.map((o) => o.notBefore ?? 0));
    await new Promise((r) => setTimeout(r, Math.min(10_000, Math.max(200, heldUntil - Date.now()))));
  }
  const snap = kb.snapshot(botId);
  const local = snap.ok ? snap.value.entries.filter((e) => !e.deleted) : [];
  const remote = await createKbClient({
    baseUrl: input.baseUrl,
    token: input.kb.token,
    budget: budgetFor(input.baseUrl, 'kb'),
  }).list();
  const mismatched: string[] = [];
  if (!remote.ok) mismatched.push(`listing failed: ${remote.error.code}`);
  else {
    const theirs = new Map(remote.value.map((e) => [e.id, e]));
    for (const e of local) {
      const t = e.remoteId === null ? undefined : theirs.get(e.remoteId);
      if (!t || t.title !== e.title || t.description !== e.description) mismatched.push(e.title);
      if (e.remoteId !== null) theirs.delete(e.remoteId);
    }
    for (const t of theirs.values()) mismatched.push(`online only: ${t.title}`);
  }
  return {
    event: 'settled',
    counts: summary.counts,
    allDone: summary.allDone,
    stuck,
    live,
    skipped,
    kb: {
      entries: local.length,
      outbox: kb.outbox(botId).length,
      notSynced: local.filter((e) => e.state !== 'synced').length,
      mismatched: mismatched.slice(0, 20),
    },
  };
}

function readInput(): Promise<AppChildInput> {
  return new Promise((resolve, reject) => {
    const lines = createInterface({ input: process.stdin });
    lines.once('line', (line) => {
      try {
        resolve(JSON.parse(line) as AppChildInput);
      } catch (e) {
        reject(e);
      }
    });
  });
}

main().catch((e: unknown) => {
  console.error(`soak app: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
  process.exit(1);
});
