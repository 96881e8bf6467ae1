import { parseBwlimit } from '../../../src-shared/domain/bwlimit';
import { appError, err, ok, type Result } from '../../../src-shared/errors';
import type { BandwidthSetting } from '../../core';

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
