import { z } from 'zod';
import type { Account } from '../../../src-shared/api/file-hosting';
import { formatBytes } from '../../../src-shared/domain/bytes';
import { formatIstDate, istMidnightOnOrBefore } from '../../../src-shared/domain/ist-time';
import { formatRupees, runwayDays } from '../../../src-shared/domain/money';
import {
  type RunwayThreshold,
  type RunwayWarning,
  runwayWarnings,
} from '../../../src-shared/domain/runway-alerts';
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
  /** Machine ms of a service ms (the service clock's offset), to count the day's uploads by row time. */
  toMachine?: (serviceMs: number) => number;
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
  const toMachine = o.toMachine ?? ((ms: number) => ms);

  const digest = (me: Account, day: string, fromMs: number, toMs: number) => {
    // Rows that went live in that window (updated_at is the machine's clock).
    const r = syncedFiles(o.db).uploadedBetween(toMachine(fromMs), toMachine(toMs));
    const days = runwayDays(me.wallet.balance_paise, me.usage.daily_rent_paise);
    o.activity(
      'digest',
      `${day}: ${r.count} file(s) uploaded (${formatBytes(r.bytes)}); rent ${formatRupees(me.usage.daily_rent_paise)} a day; runway ${days === null ? 'unlimited (no rent)' : `${days} day(s)`}.`,
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
        const start = istMidnightOnOrBefore(serviceNowMs);
        digest(me, stored.digestDay, start - 86_400_000, start);
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
