import type {
  ActivityItem,
  FolderView,
  ProblemItem,
  Queue,
  QueueItem,
  SyncOverview,
} from '../../../src-shared/contract';
import { appStatusOf } from '../../../src-shared/domain/status-facts';
import { appStatus } from '../../../src-shared/domain/status-model';
import { folderInSyncNotice } from '../../../src-shared/domain/status-notices';
import { timeLeftText } from '../../../src-shared/domain/words';
import type { BackoffPolicy } from '../service/retry-policy';
import { serviceIdentity } from '../sync/account/service-identity';
import { createSyncEngine, type FolderStatus, type SyncEngine } from '../sync/engine';
import { laneOf } from '../sync/engine/priority';
import type { SyncEvents } from '../sync/events';
import type { ActivityEntry } from '../sync/state/activity-store';
import type { FileState } from '../sync/types';
import { refreshAccount } from './account-refresh';
import { activityLevel, activityRecorder, storageWatch } from './activity-record';
import { bandwidthOf, overviewBandwidth } from './bandwidth-settings';
import type { AppContext } from './context';
import { holdsFile } from './holds-file';
import { inBackground } from './in-background';
import type { RequestMeter } from './request-meter';
import { uploadProgressTracker } from './upload-progress';

interface ShownEta {
  etaSeconds: number | null;
  etaBound: SyncEvents['progress']['etaBound'];
}

/** The header says the same: the words of the time left (timeLeftText) and its bound. */
function sameEta(a: ShownEta, b: ShownEta): boolean {
  const words = (s: number | null) => (s === null ? null : timeLeftText(s));
  return a.etaBound === b.etaBound && words(a.etaSeconds) === words(b.etaSeconds);
}

/** Engine settings a caller may shorten (tests): the stability window and the /me poll while paused. */
export interface EngineTunables {
  stabilityMs?: number;
  pausePollMs?: number;
  /** Tests: how long a failed upload waits for its retry. */
  backoff?: BackoffPolicy;
}

/**
 * The sync engine of the current connection: built when a connection opens, stopped when it closes
 * or when a setting it was built with changes. Its events become contract events.
 */
export function createSyncRuntime(ctx: AppContext, meter: RequestMeter, engineOptions: EngineTunables = {}) {
  let engine: SyncEngine | null = null;
  const holdsOut = holdsFile(ctx.dataDir);
  const uploads = uploadProgressTracker();
  let unsubscribe: (() => void)[] = [];
  let starting: Promise<void> = Promise.resolve();
  /** How often the snapshots were built (the benchmark reads these: they should follow events sent, not transitions). */
  const stats = { fileTransitions: 0, overviewComputations: 0, queueComputations: 0, folderListings: 0 };

  // The folders' tallies (a COUNT per state over every row of the folder) read once for the two
  // snapshots that go out together: the overview and the queue each read them, and at 20,000 files
  // that was the largest cost the app added per event sent (docs/benchmarks.md). Any change the
  // runtime hears of (emitState, emitQueue) forgets them, and so does the next turn of the event loop.
  let listed: FolderStatus[] | null = null;
  const listedFolders = (e: SyncEngine): FolderStatus[] => {
    if (listed) return listed;
    stats.folderListings++;
    const now = e.listFolders();
    listed = now;
    setImmediate(() => {
      if (listed === now) listed = null;
    });
    return now;
  };

  // Marks both snapshots dirty; the bus builds them when the coalesced event goes out (with the
  // state of that moment), so a burst of transitions costs one or two builds, not one each.
  const queueNow = () => (engine ? queue(undefined, listedFolders(engine)) : null);
  const emitQueue = () => {
    listed = null;
    ctx.bus.emitLazy('sync.queue', queueNow);
  };
  const emitState = () => {
    if (!engine) return;
    listed = null;
    ctx.bus.emitLazy('sync.changed', () => (engine ? overview(listedFolders(engine)) : null));
    ctx.bus.emitLazy('sync.queue', queueNow);
  };

  let lastProgress: SyncEvents['progress'] | null = null;
  let lastProgressAt: number | null = null;
  /** The time left the last overview said (to send the overview again when it changes). */
  let sentEta: ShownEta = { etaSeconds: null, etaBound: null };
  const shownEta = (p: SyncEvents['progress'] | null): ShownEta => ({
    etaSeconds: p?.etaSeconds ?? null,
    etaBound: p?.etaBound ?? null,
  });
  /** The overview is said again when the budget's hold ends (nothing else may change meanwhile). */
  let holdTimer: NodeJS.Timeout | null = null;
  let holdEnds: number | null = null;
  function endOfHold(until: number | null) {
    if (until === holdEnds) return;
    if (holdTimer) clearTimeout(holdTimer);
    holdTimer = null;
    holdEnds = until;
    if (until === null) return;
    holdTimer = setTimeout(
      () => {
        holdTimer = null;
        holdEnds = null;
        emitState();
      },
      Math.max(0, until - Date.now()) + 20,
    );
    holdTimer.unref();
  }

  // The engine's pause follows the app's one account snapshot: a top-up seen by any /me resumes it.
  ctx.account.onSeen((source, account) => {
    if (source === ctx.cacheSource()) engine?.accountSeen(account);
  });

  async function startFor(): Promise<void> {
    await stopEngine();
    const live = ctx.session.live;
    if (!live) return;
    uploads.clear();
    const settings = ctx.settings.get();
    const e = createSyncEngine({
      db: ctx.db,
      client: live.client,
      service: serviceIdentity(live.connection, ctx.dataDir),
      concurrency: settings.concurrency,
      contentDedupe: () => ctx.settings.get().contentDedupe,
      bandwidth: bandwidthOf(settings),
      ...engineOptions,
    });
    const storage = storageWatch(activityRecorder(ctx));
    // Pause all survives a restart (the setting); the engine starts paused.
    if (settings.pausedAll) e.pause();
    engine = e;
    unsubscribe = [
      e.on('upload-progress', (p) => uploads.onProgress(p)),
      e.on('file', (f) => {
        stats.fileTransitions++;
        storage(f);
        if (f.from === 'UPLOADING' && f.to !== 'UPLOADING') uploads.forget(f.fileId);
        emitState();
      }),
      e.on('progress', (p) => {
        lastProgress = p;
        lastProgressAt = Date.now();
        // The header's time left is the overview's: sent again when what it says changes (a second, a
        // minute, its bound), not with every progress (the queue is).
        if (sameEta(shownEta(p), sentEta)) emitQueue();
        else emitState();
      }),
      e.on('bandwidth', () => emitState()),
      e.on('request-hold', () => emitState()),
      e.on('folder-in-sync', ({ folderId }) => {
        // Said only when the model agrees (the card says "In sync", with live files), in the card's words.
        const listing = e.listFolders();
        const folder = listing.find((x) => x.id === folderId);
        const notice = folder && folderInSyncNotice(appStatusOf(overview(listing)), folderId, folder.path);
        if (notice) ctx.bus.emit('notify', notice);
        emitState();
      }),
      // Uploads paused for money, syncing stopped, offline: notified in the model's words by the state
      // notices (sections/state-notices-section.ts), from the overview these events send.
      e.on('paused', () => {
        emitState();
        inBackground(ctx.log, 'Reading the account after a pause', () => refreshAccount(ctx));
      }),
      e.on('resumed', () => {
        emitState();
        inBackground(ctx.log, 'Reading the account after uploads resumed', () => refreshAccount(ctx));
      }),
      e.on('connectivity', ({ offline }) => {
        emitState();
        if (!offline) inBackground(ctx.log, 'Reading the account back online', () => refreshAccount(ctx));
      }),
      e.on('stopped', () => emitState()),
      e.on('error', (x) => ctx.log(`sync error ${x.code}: ${x.message}`)),
      e.on('activity', (a) => ctx.bus.emit('activity.added', toActivity(a))),
    ];
    await e.start();
    emitState();
  }

  async function stopEngine() {
    for (const u of unsubscribe) u();
    unsubscribe = [];
    endOfHold(null);
    const e = engine;
    engine = null;
    if (e) await e.stop();
    holdsOut.remove();
  }

  function folderViews(listing?: FolderStatus[]): FolderView[] {
    if (!engine) return [];
    return (listing ?? engine.listFolders()).map((f) => ({
      id: f.id,
      path: f.path,
      bucket: f.bucket,
      mode: f.mode,
      paused: f.paused,
      followOutsideLinks: f.followOutsideLinks,
      problem: f.problem,
      inSync: f.inSync,
      // One definition of pending and failed (state/transitions.ts): a file waiting for its automatic
      // retry is pending ("syncing"), not failed ("needs attention"), as in the CLI's status and the engine.
      counts: f.tally,
    }));
  }

  /** `listing`: the engine's folders as just read (the snapshots going out together share one read). */
  function overview(listing?: FolderStatus[]): SyncOverview {
    stats.overviewComputations++;
    const folders = folderViews(listing);
    const s = engine?.state;
    const held = s?.stopped
      ? { code: s.stopped.code, message: s.stopped.message }
      : s?.accountPaused
        ? { code: s.accountPaused.code, message: s.accountPaused.message }
        : s?.userPaused
          ? { code: 'USER-PAUSED', message: 'You paused syncing; resume to continue.' }
          : null;
    const pending = folders.reduce((n, f) => n + f.counts.pending, 0);
    const live = ctx.session.live;
    const offline = s?.offline
      ? {
          since: s.offline.since,
          nextTryAt: s.offline.nextTryAt,
          waiting: pending,
          message: s.offline.message,
        }
      : null;
    const bandwidth = engine ? overviewBandwidth(engine.bandwidth(), Date.now()) : null;
    const hold = engine?.requestHold() ?? null;
    // The facts the one status model derives every surface's words from (src-shared/domain/status-model.ts).
    const holds = {
      stopped: s?.stopped ? { code: s.stopped.code, message: s.stopped.message } : null,
      account: s?.accountPaused ? { code: s.accountPaused.code, message: s.accountPaused.message } : null,
      userPaused: s?.userPaused ?? false,
      schedule: s?.schedulePaused
        ? { until: bandwidth?.kind === 'pause' && bandwidth.source === 'schedule' ? bandwidth.until : null }
        : null,
      offline: s?.offline ? { nextTryAt: s.offline.nextTryAt } : null,
      // The request budget's own hold (a 429's Retry-After, alone or in an office), said as the budget
      // keeps it: a desk alone has no office status to say it (issue 31).
      rateLimited: hold?.kind === 'rate-limited' ? { until: hold.until } : null,
      officeWait: hold?.kind === 'office-wait' ? { until: hold.until } : null,
    };
    endOfHold(hold?.until ?? null);
    // The state is the one status model's (a schedule's pause is "paused", a failed file "error"); offline
    // is its own field here, and the files' state under it stays what it was.
    if (engine) holdsOut.write(holds);
    const model = appStatus({
      now: Date.now(),
      holds,
      folders: folders.map((f) => ({ ...f, tally: f.counts })),
    });
    const state = model.state === 'offline' ? (pending > 0 ? 'syncing' : 'idle') : model.state;
    sentEta = shownEta(lastProgress);
    return {
      offline,
      holds,
      nextCheckAt: s?.nextAccountCheckAt ?? null,
      bandwidth,
      etaSeconds: shownEta(lastProgress).etaSeconds,
      etaBound: shownEta(lastProgress).etaBound,
      etaAt: lastProgressAt,
      state,
      held,
      folders,
      budget: {
        perMinute: live ? ctx.settings.get().requestsPerMinute : 0,
        usedLastMinute: meter.lastMinute(),
      },
      concurrency: ctx.settings.get().concurrency,
    };
  }

  function queue(folderId?: number, listing?: FolderStatus[]): Queue {
    stats.queueComputations++;
    if (!engine) return { active: [], waiting: 0, problems: [] };
    const e = engine;
    const folders = new Map((listing ?? e.listFolders()).map((f) => [f.id, f]));
    const pick = (state: FileState, limit: number) =>
      e.listFiles({ state, limit, ...(folderId !== undefined ? { folderId } : {}) });
    const active: QueueItem[] = [...pick('UPLOADING', 50), ...pick('HASHING', 20)].map((r) => {
      const p = r.state === 'UPLOADING' ? uploads.progressOf(r.id) : null;
      return {
        fileId: r.id,
        folderId: r.folderId,
        name: r.name,
        sizeBytes: r.size ?? 0,
        state: r.state,
        sentBytes: p?.sentBytes ?? 0,
        bytesPerSecond: p?.bytesPerSecond ?? null,
        // The one estimate (time-left.ts), with the limit and the schedule's windows, as the header's.
        etaSeconds: p ? e.uploadTimeLeft(p.sizeBytes - p.sentBytes, p.bytesPerSecond ?? 0) : null,
      };
    });
    let waiting = 0;
    let problemsTotal = 0;
    for (const f of folders.values()) {
      if (folderId !== undefined && f.id !== folderId) continue;
      // Files waiting for their automatic retry wait too (the status model counts them pending).
      waiting += f.counts.NEW + f.counts.QUEUED + f.counts.PAUSED + f.tally.retrying;
      problemsTotal += f.counts.FAILED + f.counts.SKIPPED;
    }
    const problems: ProblemItem[] = [...pick('FAILED', 200), ...pick('SKIPPED', 200)].map((r) => ({
      fileId: r.id,
      folderId: r.folderId,
      name: r.name,
      state: r.state as 'FAILED' | 'SKIPPED',
      code: r.reasonCode ?? r.state,
      reason: r.reason ?? '',
      nextRetryAt: r.nextRetryAt,
    }));
    const next = e
      .nextUp(20)
      .filter((r) => folderId === undefined || r.folderId === folderId)
      .map((r) => ({ fileId: r.id, name: r.name, sizeBytes: r.size ?? 0, lane: laneOf(r.priority) }));
    return { active, waiting, problems, problemsTotal, next };
  }

  return {
    get engine(): SyncEngine | null {
      return engine;
    },
    /** (Re)builds the engine for the current connection; calls are serialized. */
    restart(): Promise<void> {
      starting = starting.then(startFor, startFor);
      return starting;
    },
    stop(): Promise<void> {
      starting = starting.then(stopEngine, stopEngine);
      return starting;
    },
    ready: () => starting,
    overview: (): SyncOverview => overview(),
    queue: (folderId?: number): Queue => queue(folderId),
    emitState,
    stats: (): Readonly<typeof stats> => ({ ...stats }),
    activity(limit: number): ActivityItem[] {
      return engine ? engine.activity({ limit }).map(toActivity) : [];
    },
  };
}
export type SyncRuntime = ReturnType<typeof createSyncRuntime>;

function toActivity(a: ActivityEntry): ActivityItem {
  return { id: a.id, at: a.at, level: activityLevel(a.kind), message: a.message };
}
