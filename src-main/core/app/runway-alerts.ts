import { z } from 'zod';
import type { Account } from '../../../src-shared/api/file-hosting';
import { formatBytes } from '../../../src-shared/domain/bytes';
import { DAY_MS, formatIstDate, istMidnightOnOrBefore, parseIst } from '../../../src-shared/domain/ist-time';
import { formatRupees, runwayDays } from '../../../src-shared/domain/money';
import {
  type RunwayThreshold,
  type RunwayWarning,
  runwayWarnings,
} from '../../../src-shared/domain/runway-alerts';
import { formatServiceDate } from '../../../src-shared/domain/time-format';
import { plural } from '../../../src-shared/domain/words';
import type { Db } from '../../shared-node/sqlite';
import { statements } from '../../shared-node/statements';
import { syncedFiles } from '../sync/state/synced-files';

/**
 * Runway alerts and the daily digest, on the service's clock. A threshold notifies once when it is
 * crossed; it is forgotten when it no longer holds (a top-up), so a later crossing notifies again.
 * What fired, and the last day digested, live in `app_settings` under one key, so a restart neither
 * repeats an alert nor loses one.
 */
const Stored = z.object({
  fired: z.array(z.enum(['floor-soon', 'floor-tomorrow', 'arrears'])).default([]),
  digestDay: z.string().nullable().default(null),
});
type Stored = z.infer<typeof Stored>;
const KEY = 'runway-alerts';

export interface RunwayAlerts {
  /** A fresh /me: returns the warnings to notify now (at most one, the most severe of those newly crossed). */
  onAccount(me: Account, serviceNowMs: number, days: number): RunwayWarning[];
}

export function createRunwayAlerts(o: {
  db: Db;
  /** Writes an activity line (the digest). */
  activity(kind: string, message: string): void;
  /**
   * The service clock's offsets over time, oldest first: from machine ms `from` on, service time was
   * machine time + `offsetMs`. A row's upload time (machine clock) is placed on the service's day by
   * the offset in force when it went live, not today's: the sandbox clock moved a day forward must not
   * move yesterday's uploads out of yesterday (issue 23). Absent: no offset.
   */
  offsets?: () => readonly { from: number; offsetMs: number }[];
}): RunwayAlerts {
  const prep = statements(o.db);
  const read = (): Stored => {
    const row = prep<[string], { value: string }>('SELECT value FROM app_settings WHERE key = ?').get(KEY);
    try {
      return Stored.parse(row ? JSON.parse(row.value) : {});
    } catch {
      return Stored.parse({});
    }
  };
  const write = (s: Stored) =>
    prep(
      'INSERT INTO app_settings (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value',
    ).run(KEY, JSON.stringify(s));
  const offsets = o.offsets ?? (() => []);
  const rows = syncedFiles(o.db);

  /** LIVE rows whose service time of going live is in [fromMs, toMs), summed over each offset's span. */
  const liveBetween = (fromMs: number, toMs: number) => {
    const spans = offsets();
    const list = spans.length ? spans : [{ from: 0, offsetMs: 0 }];
    let n = 0;
    let bytes = 0;
    list.forEach((span, i) => {
      const end = list[i + 1]?.from ?? Number.MAX_SAFE_INTEGER;
      const lo = Math.max(i === 0 ? 0 : span.from, fromMs - span.offsetMs);
      const hi = Math.min(end, toMs - span.offsetMs);
      if (hi <= lo) return;
      const r = rows.uploadedBetween(lo, hi);
      n += r.count;
      bytes += r.bytes;
    });
    return { n, bytes };
  };

  const digest = (me: Account, day: string, fromMs: number, toMs: number) => {
    const r = liveBetween(fromMs, toMs);
    const days = runwayDays(me.wallet.balance_paise, me.usage.daily_rent_paise);
    o.activity(
      'digest',
      // The line's own time is when it was written (this computer's clock); the day it sums up is the
      // service's (the sandbox's may be moved on), so it says which, not a second bare date (issue 34).
      `Day summary of ${formatServiceDate(day)} on the service's clock: ${plural(r.n, 'file')} uploaded (${formatBytes(r.bytes)}); rent ${formatRupees(me.usage.daily_rent_paise)} a day; runway ${days === null ? 'unlimited (no rent)' : plural(days, 'day')}.`,
    );
  };

  return {
    onAccount(me, serviceNowMs, days) {
      const stored = read();
      const warnings = runwayWarnings(me, serviceNowMs, days);
      const holding = new Set<RunwayThreshold>(warnings.map((w) => w.threshold));
      const fresh = warnings.filter((w) => !stored.fired.includes(w.threshold));
      const today = formatIstDate(serviceNowMs);
      if (stored.digestDay !== null && stored.digestDay < today) {
        // The day digested is the one stored, counted from its own midnight: days may have passed
        // since (the machine slept, the sandbox clock moved), and the day before today counted
        // none of its uploads under its date.
        const start = parseIst(`${stored.digestDay} 00:00`) ?? istMidnightOnOrBefore(serviceNowMs) - DAY_MS;
        digest(me, stored.digestDay, start, start + DAY_MS);
      }
      write({
        // Kept while they hold; a threshold that no longer holds may fire again on its next crossing.
        fired: [
          ...new Set([...stored.fired.filter((t) => holding.has(t)), ...fresh.map((w) => w.threshold)]),
        ],
        digestDay: today,
      });
      return fresh.slice(0, 1);
    },
  };
}
