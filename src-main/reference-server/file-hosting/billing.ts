import { DAY_MS, formatIstDate, istMidnightOnOrBefore } from '../../../src-shared/domain/ist-time';
import { statements } from '../../shared-node/statements';
import type { JobSource } from '../clock';
import type { Hosting } from './hosting';
import { dailyRentPaise, GRACE_MS } from './rent';

const LAST_RUN_KEY = 'billing_last_midnight';

/**
 * The daily measure-and-charge, due at every IST midnight of the server's clock. For each open client, in
 * order: close it when its arrears are `grace_days` old (files removed), otherwise measure its live files,
 * write the snapshot of the day that just ended and charge that day's rent (or book arrears).
 */
export function billingJob(hosting: Hosting): JobSource {
  const { db, clock, log } = hosting.ctx;
  const prep = statements(db);
  const read = prep('SELECT value FROM server_meta WHERE key = ?');
  const write = prep(
    'INSERT INTO server_meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value',
  );
  let lastRun = Number((read.get(LAST_RUN_KEY) as { value: string } | undefined)?.value ?? Number.NaN);
  if (Number.isNaN(lastRun)) {
    // A new data folder: the first charge is at the coming midnight.
    lastRun = istMidnightOnOrBefore(clock.now());
    write.run(LAST_RUN_KEY, String(lastRun));
  }

  return {
    name: 'file-hosting billing',
    nextDueAt: () => lastRun + DAY_MS,
    async runDue(at) {
      const removed: string[] = [];
      const planted = hosting.faults.takeRentError();
      try {
        db.transaction(() => {
          for (const client of hosting.clients.notClosed()) {
            if (
              client.arrears_paise > 0 &&
              client.arrears_since !== null &&
              at >= client.arrears_since + GRACE_MS
            ) {
              removed.push(...closeClient(hosting, client.id, at));
              continue;
            }
            const totals = hosting.files.totals(client.id);
            hosting.wallet.chargeDay(
              client.id,
              {
                usageDate: formatIstDate(at - 1),
                bytesUsed: totals.bytes_used,
                filesCount: totals.files_count,
                rentPaise: Math.max(
                  0,
                  dailyRentPaise(totals.bytes_used, hosting.ctx.options.pricePerGbMonthPaise) + planted,
                ),
              },
              at,
            );
          }
          write.run(LAST_RUN_KEY, String(at));
        })();
        lastRun = at;
      } catch (error) {
        // Never leave the scheduler spinning on a day that cannot be billed: skip it and say so.
        log.error({ err: error, at }, 'daily billing failed; the day was skipped');
        lastRun = at;
      }
      for (const key of removed) await hosting.objects.remove({ key }).catch(() => undefined);
    },
  };
}

/** Closes a client: status CLOSED and every live file deleted. Returns the object keys to remove. */
function closeClient(hosting: Hosting, clientId: number, at: number): string[] {
  hosting.clients.close(clientId, at);
  hosting.ctx.log.info({ clientId }, 'client closed after the grace days of unpaid arrears');
  return hosting.files.deleteAllOf(clientId, at);
}
