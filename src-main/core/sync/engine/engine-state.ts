import { DOCUMENTED_RULES } from '../account/account-gate';
import type { UploadRules } from '../local/local-checks';
import { type SpeedMeter, speedMeter } from '../progress';
import type { FolderWatch, WatchChange } from '../watch/watch-folder';
import type { Offline } from './connectivity';

/** Why the engine stopped (401, account closed): it needs the user, and a new engine with a new client. */
export interface StopReason {
  reaction: 'auth' | 'closed';
  code: string;
  message: string;
}

/** One upload in flight: how to abort it and what its progress events last said. */
export interface UploadSlot {
  controller: AbortController;
  size: number;
  sent: number;
  /** When its last upload-progress event went out (they are spaced by 100 ms). */
  shownAt: number;
}

/**
 * Everything the engine holds in memory between two turns, in one place: the rooms (engine/*.ts) read
 * and write it, nothing else does. What outlives a restart is in SQLite, never here: a restart builds
 * a fresh state and resumes from the rows.
 */
export interface EngineState {
  /** Between start() and stop(). */
  running: boolean;
  /** pause() without a folder: nothing is hashed or sent (deletes and scans go on). */
  userPaused: boolean;
  /** The weekly schedule's pause window is in force (engine/schedule.ts): nothing is hashed or sent. */
  schedulePaused: boolean;
  /** The account refuses uploads (402): queued rows wait as PAUSED until /me allows them. */
  accountPaused: { code: string; message: string } | null;
  /** The service gave no answer (connection refused, DNS, timeout): only a probe of /me is sent until it does. */
  offline: Offline | null;
  /** The account's refusal (402) is being asked about: which poll this is, and when the next one goes. */
  pausePoll: { attempt: number; nextAt: number } | null;
  /** Set once, on 401 or account closed: nothing more is sent. */
  stopped: StopReason | null;
  /** Between start() and the end of its /me call and reconciliation: only scans may run. */
  startingUp: boolean;
  /** The upload rules of the account (the documented ones until /me said otherwise). */
  rules: UploadRules;

  /** Rows being hashed (NEW -> HASHING -> QUEUED), by id. */
  preparing: Set<number>;
  /** Rows being sent, by id. */
  uploading: Map<number, UploadSlot>;
  /** Folders being scanned, and those to scan again once that scan ends. */
  scanning: Set<number>;
  /** Folders just added, held from hashing and sending until files already in the bucket are adopted. */
  adopting: Set<number>;
  rescanWanted: Set<number>;
  /** A batch of deletes is running. */
  deleting: boolean;
  /** A journal reconciliation is running, and how many in a row failed to list a bucket. */
  reconciling: boolean;
  reconcileFailures: number;
  /** A scheduler turn is already queued (setImmediate). */
  pumpQueued: boolean;

  /** Watchers by folder id, and the changes they reported that wait for their batch (by path). */
  watches: Map<number, FolderWatch>;
  pendingChanges: Map<number, Map<string, WatchChange['kind']>>;

  timers: {
    reconcile: NodeJS.Timeout | null;
    /** /me while the account pauses uploads: a wait on the engine's clock, aborted to cancel it. */
    poll: AbortController | null;
    /** /me while offline, to learn that the service answers again. */
    probe: NodeJS.Timeout | null;
    /** /me again while the account the rows belong to is unconfirmed. */
    confirm: NodeJS.Timeout | null;
    /** The next retry or stability window that falls due. */
    due: NodeJS.Timeout | null;
    /** One per folder: the end of its watch batch. */
    changes: Map<number, NodeJS.Timeout>;
    /** A running engine keeps its process alive: its waits (request budget, retries) may use unref'd timers. */
    keepAlive: NodeJS.Timeout | null;
  };

  /** This session's progress (files and bytes queued since start) and which folders are in sync. */
  progress: {
    /** Rows counted in filesTotal that are not done yet: id -> size. */
    counted: Map<number, number>;
    filesDone: number;
    bytesDone: number;
    lastEmittedAt: number;
    meter: SpeedMeter;
    /** Folders whose rows changed since the last in-sync check. */
    dirtyFolders: Set<number>;
    /** Folders that said folder-in-sync and have not changed since. */
    inSync: Set<number>;
  };

  /** waitUntilSettled() callers. */
  settleWaiters: (() => void)[];
}

export function createEngineState(): EngineState {
  return {
    running: false,
    userPaused: false,
    schedulePaused: false,
    accountPaused: null,
    offline: null,
    pausePoll: null,
    stopped: null,
    startingUp: false,
    rules: DOCUMENTED_RULES,
    preparing: new Set(),
    uploading: new Map(),
    scanning: new Set(),
    adopting: new Set(),
    rescanWanted: new Set(),
    deleting: false,
    reconciling: false,
    reconcileFailures: 0,
    pumpQueued: false,
    watches: new Map(),
    pendingChanges: new Map(),
    timers: {
      reconcile: null,
      poll: null,
      probe: null,
      confirm: null,
      due: null,
      changes: new Map(),
      keepAlive: null,
    },
    progress: {
      counted: new Map(),
      filesDone: 0,
      bytesDone: 0,
      lastEmittedAt: 0,
      meter: speedMeter(),
      dirtyFolders: new Set(),
      inSync: new Set(),
    },
    settleWaiters: [],
  };
}

/** Stopped (401, account closed) or not running: loops check it before each request they send. */
export const isHalted = (s: EngineState) => s.stopped !== null || !s.running;
