import { DOCUMENTED_RULES } from '../account/account-gate';
import type { UploadRules } from '../local/local-checks';
import { type SpeedMeter, speedMeter } from '../progress';
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
 * What the engine holds in memory between two turns that is true of the whole engine: running, the
 * pauses, offline, the account's rules and stop, the hashing and upload slots, this session's
 * progress. What belongs to one folder (its scans, watcher, batch of changes, adoption, in-sync flag)
 * is its runner's (folder-runner.ts); each room's timers are its own (timers.ts). What outlives a
 * restart is in SQLite, never here: a restart builds a fresh state and resumes from the rows.
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
  /** A batch of deletes is running. */
  deleting: boolean;
  /** A journal reconciliation is running, and how many in a row failed to list a bucket. */
  reconciling: boolean;
  reconcileFailures: number;
  /** A scheduler turn is already queued (setImmediate). */
  pumpQueued: boolean;

  /** This session's progress: files and bytes queued since start, done, and the speed. */
  progress: {
    /** Rows counted in filesTotal that are not done yet: id -> size. */
    counted: Map<number, number>;
    filesDone: number;
    bytesDone: number;
    lastEmittedAt: number;
    meter: SpeedMeter;
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
    deleting: false,
    reconciling: false,
    reconcileFailures: 0,
    pumpQueued: false,
    progress: {
      counted: new Map(),
      filesDone: 0,
      bytesDone: 0,
      lastEmittedAt: 0,
      meter: speedMeter(),
    },
    settleWaiters: [],
  };
}

/** Stopped (401, account closed) or not running: loops check it before each request they send. */
export const isHalted = (s: EngineState) => s.stopped !== null || !s.running;
