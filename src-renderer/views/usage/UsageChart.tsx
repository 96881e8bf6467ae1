import type { UsageSnapshot } from '../../../src-shared/api/file-hosting';
import { formatRupees } from '../../../src-shared/domain/money';
import { formatBytes } from '../../lib/format';

/**
 * Hand-written SVG: bars for bytes stored, a line for the day's rent on its own scale. A chart
 * library would triple the bundle for two series.
 */
export function UsageChart({ days }: { days: UsageSnapshot[] }) {
  const W = 760;
  const H = 240;
  const pad = { l: 56, r: 56, t: 12, b: 28 };
  const w = W - pad.l - pad.r;
  const h = H - pad.t - pad.b;
  const sorted = [...days].sort((a, b) => a.usage_date.localeCompare(b.usage_date));
  const maxBytes = Math.max(1, ...sorted.map((d) => d.bytes_used));
  const maxRent = Math.max(1, ...sorted.map((d) => d.rent_paise));
  const step = w / Math.max(1, sorted.length);
  const barW = Math.max(2, Math.min(28, step * 0.7));
  const x = (i: number) => pad.l + i * step + step / 2;
  const yB = (v: number) => pad.t + h - (v / maxBytes) * h;
  const yR = (v: number) => pad.t + h - (v / maxRent) * h;
  const labelEvery = Math.ceil(sorted.length / 8);

  return (
    <figure className="chart" style={{ margin: 0 }}>
      <svg
        viewBox={`0 0 ${W} ${H}`}
        role="img"
        aria-label={`Bytes stored and rent per day over ${sorted.length} days`}
        data-testid="usage-chart"
      >
        <line className="axis" x1={pad.l} x2={W - pad.r} y1={pad.t + h} y2={pad.t + h} />
        <text x={pad.l - 8} y={pad.t + 10} textAnchor="end">
          {formatBytes(maxBytes)}
        </text>
        <text x={pad.l - 8} y={pad.t + h} textAnchor="end">
          0
        </text>
        <text x={W - pad.r + 8} y={pad.t + 10}>
          {formatRupees(maxRent)}
        </text>
        {sorted.map((d, i) => (
          <rect
            key={d.usage_date}
            className="bar"
            x={x(i) - barW / 2}
            y={yB(d.bytes_used)}
            width={barW}
            height={pad.t + h - yB(d.bytes_used)}
            rx="2"
          >
            <title>
              {d.usage_date}: {formatBytes(d.bytes_used)}, {d.files_count} files, rent{' '}
              {formatRupees(d.rent_paise)}
            </title>
          </rect>
        ))}
        {sorted.length > 1 ? (
          <polyline className="line" points={sorted.map((d, i) => `${x(i)},${yR(d.rent_paise)}`).join(' ')} />
        ) : null}
        {sorted.map((d, i) => (
          <circle key={`r${d.usage_date}`} className="pt" cx={x(i)} cy={yR(d.rent_paise)} r="2.5" />
        ))}
        {sorted.map((d, i) =>
          i % labelEvery === 0 ? (
            <text key={`l${d.usage_date}`} x={x(i)} y={H - 8} textAnchor="middle">
              {d.usage_date.slice(5)}
            </text>
          ) : null,
        )}
      </svg>
      <figcaption className="legend">
        <span>
          <i style={{ background: 'var(--accent)' }} />
          Bytes stored
        </span>
        <span>
          <i style={{ background: 'var(--warn)' }} />
          Rent charged
        </span>
      </figcaption>
    </figure>
  );
}
