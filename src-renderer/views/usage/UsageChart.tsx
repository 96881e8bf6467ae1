import { useLayoutEffect, useRef, useState } from 'react';
import type { UsageSnapshot } from '../../../src-shared/api/file-hosting';
import { formatRupees } from '../../../src-shared/domain/money';
import { formatServiceDay } from '../../../src-shared/domain/time-format';
import { formatBytes } from '../../lib/format';
import { plural } from '../../lib/plural';
import { byteUnit, ticks } from './chart-scale';

/**
 * Hand-written SVG: bars for bytes stored (left scale), a line for the day's rent (right scale, in
 * whole paise). A chart library would triple the bundle for two series. Every bar and point has a
 * tooltip; where a day has room for it and pays rent, the rent is also written above its point.
 *
 * Drawn at the figure's own width (one unit a CSS pixel): a fixed 760-wide drawing scaled down to an
 * 800x600 window's card wrote its scales and dates at 7 px.
 */
export function UsageChart({ days }: { days: UsageSnapshot[] }) {
  const figure = useRef<HTMLElement>(null);
  const [W, setW] = useState(760);
  // Measured before the first paint: drawn first at 760 and corrected by the observer a frame later,
  // the chart was on screen (and read) at the wrong scale in between.
  useLayoutEffect(() => {
    const el = figure.current;
    if (!el) return;
    const measure = () => setW(Math.max(320, Math.round(el.clientWidth)));
    measure();
    const ro = new ResizeObserver(measure);
    ro.observe(el);
    return () => ro.disconnect();
  }, []);
  const H = 250;
  const pad = { l: 64, r: 64, t: 22, b: 28 };
  const w = W - pad.l - pad.r;
  const h = H - pad.t - pad.b;
  const sorted = [...days].sort((a, b) => a.usage_date.localeCompare(b.usage_date));
  const maxBytes = Math.max(1, ...sorted.map((d) => d.bytes_used));
  const byteTicks = ticks(maxBytes, { unit: byteUnit(maxBytes) });
  const rentTicks = ticks(Math.max(1, ...sorted.map((d) => d.rent_paise)), { minStep: 1 });
  const topBytes = byteTicks.at(-1)!;
  const topRent = rentTicks.at(-1)!;
  const step = w / Math.max(1, sorted.length);
  const barW = Math.max(2, Math.min(28, step * 0.7));
  const x = (i: number) => pad.l + i * step + step / 2;
  const yB = (v: number) => pad.t + h - (v / topBytes) * h;
  const yR = (v: number) => pad.t + h - (v / topRent) * h;
  // A date label is about 44 px wide: one every so many days that they do not touch.
  const labelEvery = Math.max(1, Math.ceil(52 / step));
  const tip = (d: UsageSnapshot) =>
    `${d.usage_date}: ${formatBytes(d.bytes_used)} in ${plural(d.files_count, 'file')}, rent ${formatRupees(d.rent_paise)} (${d.outcome.toLowerCase()})`;

  return (
    <figure ref={figure} className="chart" style={{ margin: 0 }}>
      <svg
        viewBox={`0 0 ${W} ${H}`}
        role="img"
        aria-label={`Bytes stored and rent per day over ${plural(sorted.length, 'day')}`}
        data-testid="usage-chart"
      >
        {byteTicks.map((t) => (
          <g key={`b${t}`}>
            <line className="grid-line" x1={pad.l} x2={W - pad.r} y1={yB(t)} y2={yB(t)} />
            <text x={pad.l - 8} y={yB(t) + 4} textAnchor="end" data-testid="bytes-tick">
              {t === 0 ? '0' : formatBytes(t)}
            </text>
          </g>
        ))}
        {rentTicks.map((t) => (
          <text key={`r${t}`} x={W - pad.r + 8} y={yR(t) + 4} className="rent-tick" data-testid="rent-tick">
            {formatRupees(t)}
          </text>
        ))}
        <line className="axis" x1={pad.l} x2={W - pad.r} y1={pad.t + h} y2={pad.t + h} />
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
            <title>{tip(d)}</title>
          </rect>
        ))}
        {sorted.length > 1 ? (
          <polyline className="line" points={sorted.map((d, i) => `${x(i)},${yR(d.rent_paise)}`).join(' ')} />
        ) : null}
        {sorted.map((d, i) => (
          <circle key={`p${d.usage_date}`} className="pt" cx={x(i)} cy={yR(d.rent_paise)} r="3.5">
            <title>{tip(d)}</title>
          </circle>
        ))}
        {/* A free day's figure is left out: "₹0.00" sat on the base line over every bar, and said
            nothing the flat line at 0 does not (its tooltip and the table still say it). */}
        {step >= 48
          ? sorted.map((d, i) =>
              d.rent_paise > 0 ? (
                <text
                  key={`v${d.usage_date}`}
                  className="rent-value"
                  x={x(i)}
                  y={yR(d.rent_paise) - 8}
                  textAnchor="middle"
                >
                  {formatRupees(d.rent_paise)}
                </text>
              ) : null,
            )
          : null}
        {sorted.map((d, i) =>
          i % labelEvery === 0 ? (
            <text key={`l${d.usage_date}`} x={x(i)} y={H - 8} textAnchor="middle">
              {formatServiceDay(d.usage_date)}
            </text>
          ) : null,
        )}
      </svg>
      <figcaption className="legend">
        <span>
          <i style={{ background: 'var(--accent)' }} />
          Bytes stored (left scale)
        </span>
        <span>
          <i style={{ background: 'var(--warn)' }} />
          Rent (right scale)
        </span>
      </figcaption>
    </figure>
  );
}
