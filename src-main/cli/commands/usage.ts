import { formatBytes } from '../../../src-shared/domain/bytes';
import { USAGE_DAYS_MAX, USAGE_DAYS_MIN } from '../../../src-shared/domain/limits';
import { formatRupees } from '../../../src-shared/domain/money';
import { appError } from '../../../src-shared/errors';
import { EXIT, parseCommand, withConnection } from '../common';

const USAGE = `assets-sync usage [--days N]
  Daily snapshots of bytes stored and rent charged, the last N days (1-90, default 30).`;

export async function run(argv: string[]): Promise<number> {
  const p = parseCommand('usage', argv, {
    options: { days: { type: 'string' } },
    usage: USAGE,
    readOnly: true,
  });
  if (!p.ok) return p.exitCode;
  const { common, out, values } = p;
  const daysText = values.days ?? '30';
  const days = /^\d+$/.test(daysText) ? Number(daysText) : Number.NaN;
  if (!(days >= USAGE_DAYS_MIN && days <= USAGE_DAYS_MAX)) {
    out.error(
      appError(
        'VALIDATION',
        `--days takes a whole number from ${USAGE_DAYS_MIN} to ${USAGE_DAYS_MAX}, got "${daysText}".`,
      ),
    );
    return EXIT.usage;
  }
  return withConnection(common, out, async (s) => {
    const r = await s.client.usage(days);
    if (!r.ok) {
      out.error(r.error);
      return EXIT.failed;
    }
    s.state.cache.putUsage(s.connection.cacheSource, days, r.value.snapshots);
    const rows = r.value.snapshots;
    if (!out.json) {
      if (rows.length === 0) out.emit(`No usage snapshots in the last ${days} days yet.`, {});
      else
        out.emit(
          `${'date'.padEnd(12)}${'files'.padStart(8)}${'stored'.padStart(12)}${'rent'.padStart(12)}  outcome`,
          {},
        );
    }
    let rent = 0;
    for (const u of rows) {
      rent += u.rent_paise;
      out.emit(
        `${u.usage_date.padEnd(12)}${String(u.files_count).padStart(8)}${formatBytes(u.bytes_used).padStart(12)}` +
          `${formatRupees(u.rent_paise).padStart(12)}  ${u.outcome}`,
        { event: 'usage', ...u },
      );
    }
    out.emit(rows.length ? `${rows.length} days, rent ${formatRupees(rent)}` : null, {
      event: 'usage.summary',
      days: r.value.days,
      count: r.value.count,
      rent_paise: rent,
    });
    return EXIT.ok;
  });
}
