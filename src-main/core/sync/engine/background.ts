import type { SyncContext } from '../context';

export interface BackgroundTask {
  /** What the task does, as the start of a sentence: "Applying the changes seen in /x". */
  what: string;
  /** The `error` event's code (default BACKGROUND-FAILED). */
  code?: string;
  folderId?: number | null;
  fileId?: number | null;
  /** Repairs what the failure left behind (a row to park, a timer to set again), after it is recorded. */
  onError?: (message: string) => void;
  /** Runs after the task however it ended (a slot to free, the next turn to ask for); its own failure is recorded too. */
  after?: () => void;
}

/**
 * The one way to start work nobody awaits (a watch batch, a rescan, a reconciliation, a poll of /me, a
 * scheduler turn, every room's timer through timers.ts): a failure is recorded in the activity log, sent as an `error` event, and the task's
 * own repair runs; the engine goes on. The returned promise never rejects, so nothing reaches Node's
 * unhandled-rejection handler (which would end a CLI run) and callers may chain `.finally`.
 */
export function runInBackground(
  ctx: SyncContext,
  task: BackgroundTask,
  fn: () => Promise<unknown> | unknown,
): Promise<void> {
  return (async () => {
    try {
      await fn();
    } catch (e) {
      recordFailure(ctx, task, e);
    }
    if (task.after) {
      try {
        task.after();
      } catch (e) {
        recordFailure(ctx, { ...task, what: `${task.what} (then)`, onError: undefined }, e);
      }
    }
  })();
}

function recordFailure(ctx: SyncContext, task: BackgroundTask, e: unknown): void {
  const message = `${task.what} failed: ${e instanceof Error ? e.message : String(e)}`;
  const folderId = task.folderId ?? null;
  // Each step on its own: the database may be what failed (or be closed after stop()). When not even
  // the activity log can be written, the line goes to the engine's last-resort log.
  if (!attempt(() => ctx.log('background-failed', message, { folderId, fileId: task.fileId ?? null })))
    attempt(() => ctx.report(message));
  attempt(() => ctx.events.emit('error', { folderId, code: task.code ?? 'BACKGROUND-FAILED', message }));
  if (task.onError) attempt(() => task.onError?.(message));
}

function attempt(f: () => void): boolean {
  try {
    f();
    return true;
  } catch {
    // Nothing more can be recorded; the engine goes on.
    return false;
  }
}
