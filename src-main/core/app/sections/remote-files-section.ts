import type { BulkDeleteJob, IndexedFile, Selection } from '../../../../src-shared/contract/remote-index';
import { formatBytes } from '../../../../src-shared/domain/bytes';
import { formatIstDate } from '../../../../src-shared/domain/ist-time';
import { plural } from '../../../../src-shared/domain/words';
import { type AppError, appError, err, ok, type Result } from '../../../../src-shared/errors';
import { botIds } from '../../kb/bots';
import { createEntryStore } from '../../kb/entries';
import { bulkDeleteStore, runBulkDelete } from '../../remote-index/bulk-delete';
import { filesToCsv, filesToJson } from '../../remote-index/export';
import { keepIndexFresh } from '../../remote-index/index-keeper';
import { indexStore, onIndexGone } from '../../remote-index/index-store';
import { createLinkIntegrity } from '../../remote-index/link-integrity';
import { type AccountIndex, createRemoteIndex } from '../../remote-index/remote-index';
import type { IndexWatch } from '../../remote-index/shared-watch';
import { serviceIdentity } from '../../sync/account/service-identity';
import { foldersStore } from '../../sync/state/folders-store';
import { type LiveFile, syncedFiles } from '../../sync/state/synced-files';
import { activityRecorder } from '../activity-record';
import type { AppContext } from '../context';
import { notConnected, plainError } from '../errors';
import { inBackground } from '../in-background';
import type { Section } from '../section';
import type { Live } from '../session-holder';
import type { SyncRuntime } from '../sync-runtime';

interface Followed {
  live: Live;
  index: AccountIndex;
  accountId: number;
  /** The first pass of a new index, while it runs: a person's Refresh waits for it, not beside it. */
  firstPass: Promise<unknown>;
  stopKeeper: () => Promise<void>;
}

type SelectionIn = Selection & { except?: number[] };

/**
 * The Files view on the remote index (docs/remote-index.md, "In the app"): its queries, the keeper
 * that refreshes it per account, and the bulk actions on a selection (delete as a job kept in SQLite,
 * export, the knowledge entries a delete would break).
 */
export function remoteFilesSection(
  ctx: AppContext,
  runtime: SyncRuntime,
  tunables: {
    refreshEveryMs?: number;
    /** The office's shared watch of an account (office/join.ts); without it each keeper reads alone. */
    watchFor?: (serviceOrigin: string, clientId: string) => IndexWatch;
  } = {},
): Section & { touched(): void; statusComputations(): number } {
  const record = activityRecorder(ctx);
  const remote = createRemoteIndex(ctx.db);
  const rows = syncedFiles(ctx.db);
  const folders = foldersStore(ctx.db);
  /** Remote ids of folder files a delete under way here lets their folder send again. */
  const sendingAgain = new Set<number>();
  const jobs = bulkDeleteStore(ctx.db);
  const entries = createEntryStore(ctx.db);
  let current: Promise<Followed | null> = Promise.resolve(null);
  /** What `current` resolved to: the gone signal tells the folders without waiting a turn. */
  let followedNow: Followed | null = null;
  let stopGone: (() => void) | null = null;
  let runner: { jobId: number; abort: AbortController; done: Promise<unknown> } | null = null;
  let unsubscribe: (() => void) | null = null;

  // The status (a COUNT over the account's rows) is built when the coalesced event goes out, not at each
  // call: every upload of a sync touches the index, and a count per upload made a sync of 20,000
  // files quadratic (docs/benchmarks.md, the app-service figure).
  let statusComputations = 0;
  const emitStatus = (index: AccountIndex) =>
    ctx.bus.emitLazy('files.index.changed', () => {
      statusComputations++;
      return index.status();
    });
  const emitJob = (job: BulkDeleteJob) => ctx.bus.emit('files.bulkDelete.changed', job);

  async function stopRunner(): Promise<void> {
    const r = runner;
    runner = null;
    if (!r) return;
    r.abort.abort();
    await r.done;
  }

  /** The names of a small delete's files, for its activity line (a restart's resumed job has none). */
  const jobNames = new Map<number, string[]>();

  function startRunner(f: Followed, jobId: number): void {
    const abort = new AbortController();
    const done = runBulkDelete({
      store: jobs,
      jobId,
      client: f.live.client,
      signal: abort.signal,
      onProgress: (job) => {
        emitJob(job);
        emitStatus(f.index);
      },
    }).finally(() => {
      if (runner?.jobId === jobId) runner = null;
      const job = jobs.get(jobId);
      if (job && job.state !== 'running')
        record(bulkDeleteKind(job), bulkDeleteSentence(job, jobNames.get(jobId)));
      jobNames.delete(jobId);
    });
    runner = { jobId, abort, done };
  }

  /** Which account the connection is (/me), its index, and the keeper; a job under way goes on. */
  async function follow(live: Live): Promise<Followed | null> {
    const service = serviceIdentity(live.connection, ctx.dataDir);
    const me = await live.client.me({ lane: 'user' });
    // Offline: the index of the account of this service refreshed last still answers.
    const account = me.ok ? { service, clientId: me.value.client.id } : remote.lastAccount(service);
    if (!account || ctx.session.live !== live) return null;
    const index = remote.forAccount(account);
    const accountId = indexStore(ctx.db).accountId(account);
    const stop = new AbortController();
    let keeper: { stop(): Promise<void> } | null = null;
    const startKeeper = () => {
      if (stop.signal.aborted) return;
      keeper = keepIndexFresh({
        index,
        client: live.client,
        ...(tunables.refreshEveryMs !== undefined ? { refreshEveryMs: tunables.refreshEveryMs } : {}),
        // Only an account /me named: an offline guess is not said to the office.
        watch:
          me.ok && tunables.watchFor ? tunables.watchFor(account.service, String(account.clientId)) : null,
        onChange: () => {
          emitStatus(index);
          tellFolders(index);
        },
        onStopped: (e) => ctx.log(`remote index: stopped (${e.code})`),
      });
    };
    // The first pass of an account is a person waiting for the Files view: the user lane, each page
    // shown as it lands; the keeper (background lane) takes over after it.
    let firstPass: Promise<unknown> = Promise.resolve();
    if (!index.status().complete && me.ok)
      firstPass = index
        .refresh(live.client, { lane: 'user', signal: stop.signal, onPage: () => emitStatus(index) })
        .then(() => {
          emitStatus(index);
          startKeeper();
        });
    else startKeeper();
    const f: Followed = {
      live,
      index,
      accountId,
      firstPass,
      async stopKeeper() {
        stop.abort();
        await firstPass;
        await keeper?.stop();
      },
    };
    const job = jobs.latest(accountId);
    if (job?.state === 'running') startRunner(f, job.id);
    emitStatus(index);
    tellFolders(index);
    return f;
  }

  /**
   * Files the index saw go from the service (a listing without them, a 410, a delete this app sent):
   * a watched folder's live row on one is sent again at once (engine.remoteGone), Activity saying
   * where it was deleted. Kept in the index's note until an engine has been told.
   */
  function tellFolders(index: AccountIndex): void {
    const engine = runtime.engine;
    if (!engine) return;
    for (;;) {
      const ids = index.gone(5_000);
      if (ids.length === 0) return;
      const here = ids.filter((id) => sendingAgain.delete(id));
      const elsewhere = ids.filter((id) => !here.includes(id));
      if (here.length) engine.remoteGone(here, "in this app's Files view", true);
      if (elsewhere.length) engine.remoteGone(elsewhere, 'on the service');
      index.forgetGone(ids);
      if (ids.length < 5_000) return;
    }
  }

  async function switchTo(live: Live | null): Promise<void> {
    const previous = current;
    current = (async () => {
      const old = await previous;
      await stopRunner();
      followedNow = null;
      await old?.stopKeeper();
      const f = live ? await follow(live) : null;
      followedNow = f;
      return f;
    })();
    await current;
  }

  async function followed(): Promise<Result<Followed, AppError>> {
    if (!ctx.session.live) return notConnected();
    const f = await current;
    if (!f)
      return err(
        appError(
          'INDEX-UNAVAILABLE',
          'The service did not say which account this is yet; try again shortly.',
        ),
      );
    return ok(f);
  }

  /** The files of a selection in the index's newest-first order; ids the index lacks are skipped. */
  function* filesOf(index: AccountIndex, s: SelectionIn): Generator<IndexedFile> {
    if ('ids' in s) {
      for (const id of s.ids) {
        const f = index.get(id);
        if (f) yield f;
      }
      return;
    }
    const except = new Set(s.except ?? []);
    for (const f of index.each({ ...s.filter, sort: 'date' })) if (!except.has(f.id)) yield f;
  }

  /** The watched folders that synced files of these ids, with those files. */
  function foldersHolding(ids: readonly number[]) {
    const by = new Map<number, LiveFile[]>();
    for (const r of rows.liveOn(ids)) by.set(r.folderId, [...(by.get(r.folderId) ?? []), r]);
    return [...by.entries()].flatMap(([folderId, files]) => {
      const folder = folders.get(folderId);
      return folder ? [{ folder, files }] : [];
    });
  }

  /** Every id a selection names: the index's files, and picked ids it does not hold yet. */
  function idsOf(index: AccountIndex, s: SelectionIn): number[] {
    const ids = [...filesOf(index, s)].map((f) => f.id);
    if ('ids' in s) {
      const known = new Set(ids);
      for (const id of s.ids) if (!known.has(id)) ids.push(id);
    }
    return ids;
  }

  return {
    name: 'remote-files',
    /** The client's replies changed the index (an upload, a delete): the view re-reads (coalesced by the bus). */
    statusComputations: () => statusComputations,
    touched() {
      inBackground(ctx.log, 'Telling the Files view and the folders that the index changed', () =>
        current.then((f) => {
          if (!f) return;
          emitStatus(f.index);
          tellFolders(f.index);
        }),
      );
    },
    handlers: {
      'files.index.query': async (q) => {
        const f = await followed();
        if (!f.ok) return f;
        return f.value.index.page(q);
      },
      'files.index.summary': async (q) => {
        const f = await followed();
        if (!f.ok) return f;
        const s = f.value.index.summary(q);
        if (!s.ok) return s;
        return ok({ ...s.value, status: f.value.index.status() });
      },
      'files.index.buckets': async () => {
        const f = await followed();
        if (!f.ok) return f;
        return ok({ buckets: f.value.index.buckets() });
      },
      'files.index.refresh': async () => {
        const f = await followed();
        if (!f.ok) return f;
        // Two passes over one index at once would each move its place; the second waits.
        await f.value.firstPass;
        const { index, live } = f.value;
        const r = await index.refresh(live.client, { lane: 'user' });
        if (!r.ok) return err(plainError(r.error));
        let { requests, removed } = r.value;
        // The listing counts fewer files than the index: which went is found now, as the keeper would
        // (a file deleted elsewhere newer than the rest is outside every page's range).
        const listed = r.value.listedTotal;
        if (r.value.complete && listed !== null && index.status().count > listed) {
          const found = await index.findDeleted(live.client, { lane: 'user' });
          if (found.ok) {
            requests += found.value.requests;
            removed += found.value.removed;
          }
        }
        emitStatus(index);
        return ok({ requests, added: r.value.added, removed });
      },
      'files.selection.summary': async (s) => {
        const f = await followed();
        if (!f.ok) return f;
        if ('filter' in s && s.except.length === 0) return f.value.index.summary(s.filter);
        let count = 0;
        let bytes = 0;
        for (const file of filesOf(f.value.index, s)) {
          count++;
          bytes += file.size;
        }
        return ok({ count, bytes });
      },
      'files.linksBrokenBy': async (s) => {
        const f = await followed();
        if (!f.ok) return f;
        const ids = new Set<number>();
        for (const file of filesOf(f.value.index, s)) ids.add(file.id);
        if ('ids' in s) for (const id of s.ids) ids.add(id);
        const texts = botIds(ctx.db).flatMap((bot) => entries.list(bot).filter((e) => !e.deleted));
        const broken = createLinkIntegrity({ index: f.value.index }).entriesBrokenBy(ids, texts);
        return ok({
          entries: broken.map((e) => ({
            entryId: e.entryId,
            botId: e.botId,
            title: e.title,
            urls: e.links.map((l) => l.url),
          })),
        });
      },
      'files.selection.folders': async (s) => {
        const f = await followed();
        if (!f.ok) return f;
        return ok({
          folders: foldersHolding(idsOf(f.value.index, s)).map(({ folder, files }) => ({
            folderId: folder.id,
            path: folder.path,
            mode: folder.mode,
            count: files.length,
            names: files.slice(0, 5).map((x) => x.name),
          })),
        });
      },
      'files.bulkDelete.start': async ({ folderFiles, ...s }) => {
        const f = await followed();
        if (!f.ok) return f;
        const running = jobs.latest(f.value.accountId);
        if (running?.state === 'running')
          return err(
            appError(
              'BULK-DELETE-RUNNING',
              `A delete of ${running.total} files is still under way (${running.done} done); wait for it or cancel it first.`,
            ),
          );
        const files: { id: number; size: number }[] = [];
        const names: string[] = [];
        for (const file of filesOf(f.value.index, s)) {
          files.push({ id: file.id, size: file.size });
          if (names.length <= NAMED_DELETES) names.push(file.name);
        }
        // An id the index does not hold yet is still sent: the service says whether it is there.
        if ('ids' in s) {
          const known = new Set(files.map((x) => x.id));
          for (const id of s.ids) if (!known.has(id)) files.push({ id, size: 0 });
        }
        if (files.length === 0) return err(appError('NOTHING-SELECTED', 'No file matches this selection.'));
        // Files a watched folder synced: the person says what the folder does next, before anything is sent.
        const held = foldersHolding(files.map((x) => x.id));
        if (held.length > 0) {
          if (!folderFiles) {
            const where = held.map(({ folder, files: fs }) => `${fs.length} in ${folder.path}`).join(', ');
            return err(
              appError(
                'FOLDER-FILES-CHOICE',
                `Some of these files belong to watched folders (${where}): choose whether the folders stop syncing them or send them again.`,
              ),
            );
          }
          await runtime.ready();
          const engine = runtime.engine;
          if (!engine)
            return err(
              appError('SYNC-NOT-RUNNING', 'The sync engine is not running; try again in a moment.'),
            );
          const synced = held.flatMap((h) => h.files);
          if (folderFiles === 'stop-syncing') engine.stopSyncing(synced.map((r) => r.id));
          else for (const r of synced) sendingAgain.add(r.remoteId);
          runtime.emitState();
        }
        const jobId = jobs.create(f.value.accountId, files);
        if (names.length === files.length && names.length <= NAMED_DELETES) jobNames.set(jobId, names);
        startRunner(f.value, jobId);
        const job = jobs.get(jobId)!;
        emitJob(job);
        return ok(job);
      },
      'files.bulkDelete.progress': async () => {
        const f = await followed();
        if (!f.ok) return f;
        return ok(jobs.latest(f.value.accountId));
      },
      'files.bulkDelete.cancel': async () => {
        const f = await followed();
        if (!f.ok) return f;
        const job = jobs.latest(f.value.accountId);
        if (job?.state !== 'running') return ok(job);
        await stopRunner();
        jobs.end(job.id, 'cancelled');
        const after = jobs.get(job.id)!;
        emitJob(after);
        return ok(after);
      },
      'files.export': async (r) => {
        const f = await followed();
        if (!f.ok) return f;
        const files = [...filesOf(f.value.index, r.selection)];
        const day = formatIstDate(Date.now());
        if (r.format === 'urls')
          return ok({
            fileName: `file-urls-${day}.txt`,
            mime: 'text/plain',
            text: files.map((x) => x.url).join('\n'),
            count: files.length,
          });
        return r.format === 'csv'
          ? ok({
              fileName: `files-${day}.csv`,
              mime: 'text/csv',
              text: filesToCsv(files),
              count: files.length,
            })
          : ok({
              fileName: `files-${day}.json`,
              mime: 'application/json',
              text: filesToJson(files),
              count: files.length,
            });
      },
    },
    start() {
      const follow = (live: Live | null) =>
        inBackground(ctx.log, 'Following the connection with the remote index', () => switchTo(live));
      unsubscribe = ctx.session.onChange(follow);
      // What any read learns (the keeper, the Files view's Refresh, a 410 or a delete in a reply) reaches
      // the folders in the same turn as the index: a folder never says Live over a file the index dropped.
      stopGone = onIndexGone(ctx.db, () => {
        if (!followedNow) return;
        tellFolders(followedNow.index);
        emitStatus(followedNow.index);
      });
      if (ctx.session.live) follow(ctx.session.live);
    },
    async close() {
      unsubscribe?.();
      stopGone?.();
      await switchTo(null);
    },
  };
}

const bulkDeleteKind = (j: BulkDeleteJob) =>
  j.failed > 0 || j.state === 'stopped' ? 'bulk-delete-failed' : 'bulk-delete';

/** Up to this many files, a delete's activity line names them (issue 34: "Deleted 1 file" said which?). */
const NAMED_DELETES = 3;

/**
 * "Deleted 120 files (2.3 MiB) from the service.", with what did not go as asked; a delete of a few
 * files names them ("Deleted notes.txt (30 B) from the service.").
 */
function bulkDeleteSentence(j: BulkDeleteJob, names?: readonly string[]): string {
  const deleted = j.done - j.failed;
  if (names && names.length === j.total && j.state === 'finished' && j.failed === 0)
    return `Deleted ${listOfNames(names)} (${formatBytes(j.bytes)}) from the service.`;
  const head =
    j.state === 'cancelled'
      ? `Delete of ${plural(j.total, 'file')} cancelled: ${deleted.toLocaleString('en')} deleted before it stopped`
      : j.state === 'stopped'
        ? `Delete of ${plural(j.total, 'file')} stopped after ${deleted.toLocaleString('en')}${j.lastError ? `: ${j.lastError.message}` : ''}`
        : j.failed
          ? `Deleted ${deleted.toLocaleString('en')} of ${plural(j.total, 'file')} from the service`
          : `Deleted ${plural(deleted, 'file')} (${formatBytes(j.bytes)}) from the service`;
  return `${head}${j.failed ? `; ${j.failed.toLocaleString('en')} could not be deleted` : ''}.`;
}

/** "a.txt", "a.txt and b.txt", "a.txt, b.txt and c.txt". */
function listOfNames(names: readonly string[]): string {
  return names.length <= 1 ? (names[0] ?? '') : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
}
