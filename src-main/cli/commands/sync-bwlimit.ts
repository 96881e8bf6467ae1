import { formatLimit, formatSchedule, limitText, parseBwlimit } from '../../../src-shared/domain/bwlimit';
import { appError, err, ok, type Result } from '../../../src-shared/errors';
import { type BandwidthSetting, type InForce, whenText } from '../../core';

/** `--bwlimit` for one run: a rate, or a timetable; absent leaves the engine unlimited. */
export function bandwidthOption(text: string | undefined): Result<BandwidthSetting | null> {
  if (text === undefined) return ok(null);
  const r = parseBwlimit(text);
  if (!r.ok) return err(appError(r.error.code, `--bwlimit: ${r.error.message}`));
  return ok(
    'limit' in r.value
      ? { limit: r.value.limit, schedule: [] }
      : { limit: { kind: 'off' }, schedule: r.value.schedule },
  );
}

/**
 * The start line of `sync`: the limit the engine has in force and where it comes from. The CLI runs
 * under `--bwlimit` alone (as it takes `--concurrency`, not the app's setting), so a limit saved in
 * the app is named as not in force, in the spelling `--bwlimit` takes, rather than left to surprise.
 */
export function uploadLimitLine(
  f: InForce,
  option: string | undefined,
  saved: BandwidthSetting,
  now: number,
): string {
  const l = f.limit;
  const what = l.kind === 'off' ? 'none' : l.kind === 'pause' ? 'paused (nothing is sent)' : limitText(l);
  const until = f.until === null ? '' : ` until ${whenText(f.until, now)}`;
  if (option !== undefined)
    return `Upload limit: ${what}${until} (--bwlimit ${f.source === 'schedule' ? 'timetable' : formatLimit(l)}).`;
  const kept = saved.schedule.length
    ? `timetable "${formatSchedule(saved.schedule)}"`
    : saved.limit.kind !== 'off'
      ? `limit ${formatLimit(saved.limit)}`
      : null;
  return kept
    ? `Upload limit: ${what}${until}; the app's saved ${kept} is for the app only, --bwlimit sets one for this run.`
    : `Upload limit: ${what}${until}.`;
}
