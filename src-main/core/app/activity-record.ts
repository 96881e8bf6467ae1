import type { ActivityItem } from '../../../src-shared/contract';
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
const WARN_KINDS = /paused|offline|duplicate|skipped|retry|broken-link|remote-gone|conflict|^arrears$/i;

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
