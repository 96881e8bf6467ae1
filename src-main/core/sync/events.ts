import { EventEmitter } from 'node:events';
import type { TimeLeftBound } from '../../../src-shared/domain/time-left';
import type { InForce } from './engine/schedule';
import type { ActivityEntry } from './state/activity-store';
import type { FileState } from './types';

/** Everything the engine tells its wrapper (CLI, app). Payloads are plain data, safe to serialize. */
export interface SyncEvents {
  /** A file row changed state; `from` is null for a row just made (a file seen for the first time). */
  file: {
    fileId: number;
    folderId: number;
    name: string;
    from: FileState | null;
    to: FileState;
    reasonCode: string | null;
    reason: string | null;
    remoteUrl: string | null;
    nextRetryAt: number | null;
    renamedFrom: string | null;
  };
  /** Upload progress across all folders, at most a few times a second. */
  progress: {
    filesDone: number;
    filesTotal: number;
    bytesSent: number;
    bytesTotal: number;
    bytesPerSecond: number;
    etaSeconds: number | null;
    /** What the ETA is bound by (src-shared/domain/time-left.ts): the bytes, the request budget, the pace of files, a retry. */
    etaBound: TimeLeftBound | null;
  };
  /**
   * Bytes of one file's body sent so far (file bytes, not the multipart framing): per file at most ten
   * times a second, and always when the last byte has left. The upload ends with the file's next `file` event.
   */
  'upload-progress': { fileId: number; folderId: number; sentBytes: number; totalBytes: number };
  /**
   * A scan of a folder read it whole: the files it listed, and whether it stopped at the last consistent
   * scan's mark (find's walk the same and no row changed since: no row read, nothing to compare).
   */
  'folder-scanned': { folderId: number; files: number; sameAsMark: boolean };
  /** A folder has nothing left to do (every file live, skipped, failed for good, or deleted). */
  'folder-in-sync': { folderId: number };
  /** Uploads paused by the account (402): they resume by themselves once /me allows uploads. */
  paused: { code: string; message: string };
  resumed: { reason: string };
  /** The service stopped answering (connection refused, DNS, timeout), a probe failed, or it answers again. */
  connectivity: { offline: boolean };
  /** The engine stopped and needs the user: 'auth' (a key is needed) or 'closed' (account closed). */
  stopped: { reaction: 'auth' | 'closed'; code: string; message: string };
  /** A problem that is not one file's: a folder missing, a watcher failing, a listing failing. */
  error: { folderId: number | null; code: string; message: string };
  activity: ActivityEntry;
  /** The upload limit in force changed (the setting, or an edge of the weekly schedule). */
  bandwidth: InForce;
  /** The request budget holds every request (a 429's Retry-After) until then (epoch ms, the engine's clock). */
  'request-hold': { kind: 'rate-limited' | 'office-wait'; until: number };
}

export type SyncEventName = keyof SyncEvents;

/**
 * The events that only progress bookkeeping sends (engine/progress-bookkeeping.ts): a row's change is
 * announced through SyncContext.transition / insertNew, so that the session's counts and the folders'
 * in-sync flags always follow what listeners are told.
 */
export type BookkeptEvent = 'file' | 'progress' | 'upload-progress' | 'folder-in-sync';

/** What the engine's parts may send directly (SyncContext.events). */
export interface PartsEmitter {
  emit<K extends Exclude<SyncEventName, BookkeptEvent>>(event: K, payload: SyncEvents[K]): void;
}

export interface SyncEmitter {
  on<K extends SyncEventName>(event: K, listener: (payload: SyncEvents[K]) => void): () => void;
  emit<K extends SyncEventName>(event: K, payload: SyncEvents[K]): void;
}

/**
 * The engine's events. A listener that throws neither breaks the engine's own bookkeeping nor the other
 * listeners, nor ends the process (it was rethrown in a microtask, which ended a CLI run with exit
 * code 1): it is handed to `onListenerError` with the event's name, once per failure.
 */
export function syncEmitter(
  onListenerError: (event: SyncEventName, error: unknown) => void = () => undefined,
): SyncEmitter {
  const ee = new EventEmitter();
  ee.setMaxListeners(50);
  return {
    on(event, listener) {
      const l = listener as (p: unknown) => void;
      ee.on(event, l);
      return () => ee.off(event, l);
    },
    emit(event, payload) {
      for (const l of ee.listeners(event)) {
        try {
          (l as (p: unknown) => void)(payload);
        } catch (e) {
          try {
            onListenerError(event, e);
          } catch {
            // The report itself failed (its log is gone): nothing more can be said.
          }
        }
      }
    },
  };
}
