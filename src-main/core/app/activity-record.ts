import type { ActivityItem } from '../../../src-shared/contract';
import { formatIstPeriod } from '../../../src-shared/domain/time-format';
import { plural } from '../../../src-shared/domain/words';
import { activityStore } from '../sync/state/activity-store';
import type { AppContext } from './context';

/**
 * What the app itself did, in the activity log beside the engine's lines (issue 23): a bulk delete, a
 * URL import, the digest, storage failures and their recovery. One line is written and sent to the
 * page as `activity.added`.
 */
export function activityRecorder(ctx: AppContext) {
  const store = activityStore(ctx.db);
  return (kind: string, message: string) => {
    const a = store.add(kind, message);
    ctx.bus.emit('activity.added', { id: a.id, at: a.at, level: activityLevel(a.kind), message: a.message });
  };
}

const ERROR_KINDS = /error|fail|stopped|closed|refused/i;
const WARN_KINDS =
  /paused|offline|rate-limited|duplicate|skipped|retry|broken-link|remote-gone|conflict|^arrears$/i;

/** An activity line's level, from its kind: the same for a line just written and one read back. */
export function activityLevel(kind: string): ActivityItem['level'] {
  return ERROR_KINDS.test(kind) ? 'error' : WARN_KINDS.test(kind) ? 'warn' : 'info';
}
export type RecordActivity = ReturnType<typeof activityRecorder>;

/** Codes of a failure on the service's side that a later upload may get past (a storage fault, a 5xx). */
const SERVICE_SIDE = /^(STORAGE-FAILED|SERVER-ERROR|BAD-GATEWAY|INTERNAL|HTTP-5\d\d|5\d\d)$/;

/**
 * Storage failures and their recovery, from the engine's file events: the first upload the service
 * could not store is one line (not one per file); the first upload stored after them is another,
 * with how many failed meanwhile.
 */
export function storageWatch(record: RecordActivity) {
  let failing = 0;
  const files = new Set<string>();
  return (f: { from: string | null; to: string; name: string; reasonCode: string | null }) => {
    if (f.to === 'FAILED' && f.reasonCode && SERVICE_SIDE.test(f.reasonCode)) {
      if (failing === 0)
        record(
          'storage-failed',
          `The service could not store ${f.name} (${f.reasonCode}); it and any others are retried automatically.`,
        );
      failing++;
      files.add(f.name);
    } else if (f.to === 'LIVE' && f.from === 'UPLOADING' && failing > 0) {
      // "after 27 failed uploads" left open whether of this file or of all (issue 34): say both counts.
      const of = files.size === 1 ? `of ${[...files][0]}` : `of ${plural(files.size, 'file')}`;
      record(
        'storage-recovered',
        `The service stores files again: ${f.name} went up, after ${plural(failing, 'failed upload')} ${of} while it could not.`,
      );
      failing = 0;
      files.clear();
    }
  };
}

/** How long the service must answer without a 429 before a "slow down" period is over. */
export const SLOW_DOWN_QUIET_MS = 5_000;

/**
 * The service's 429s as periods (issue 34): Activity gets one line when a period is over, with when it
 * began and when the service answered again, not one per request. A period is over once a reply that is
 * not a 429 came and no 429 followed it for `quietMs`; a 429 meanwhile keeps it open. Every request a 429
 * turned away is sent again by the pacer (service/pacer.ts), so nothing was lost.
 */
export function slowDownPeriods(record: RecordActivity, o: { quietMs?: number; now?: () => number } = {}) {
  const quietMs = o.quietMs ?? SLOW_DOWN_QUIET_MS;
  const now = o.now ?? Date.now;
  let open: { from: number; refused: number; answeredAt: number | null } | null = null;
  let timer: ReturnType<typeof setTimeout> | null = null;
  const stopTimer = () => {
    if (timer) clearTimeout(timer);
    timer = null;
  };
  const end = () => {
    timer = null;
    const p = open;
    open = null;
    if (!p || p.answeredAt === null) return;
    record(
      'rate-limited',
      `The service asked us to slow down ${formatIstPeriod(p.from, p.answeredAt)}; nothing was lost: ${p.refused === 1 ? 'the request it turned away waited and was sent again' : `the ${p.refused.toLocaleString('en')} requests it turned away waited and were sent again`}.`,
    );
  };
  return {
    /** Every reply's HTTP status, from the app's file API client. */
    reply(status: number): void {
      if (status === 429) {
        stopTimer();
        if (!open) open = { from: now(), refused: 0, answeredAt: null };
        open.refused++;
        open.answeredAt = null;
        return;
      }
      if (!open) return;
      open.answeredAt ??= now();
      if (!timer) {
        timer = setTimeout(end, quietMs);
        timer.unref?.();
      }
    },
    /** The app closes: a period whose end was seen is written now. */
    close(): void {
      stopTimer();
      end();
    },
  };
}
