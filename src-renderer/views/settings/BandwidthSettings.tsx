import { useState } from 'react';
import type { Settings } from '../../../src-shared/contract';
import {
  DAYS,
  formatLimit,
  formatSchedule,
  type GridCell,
  gridToSchedule,
  type Limit,
  limitAt,
  parseLimit,
  parseSchedule,
} from '../../../src-shared/domain/bwlimit';

const NEXT: Record<GridCell, GridCell> = { normal: 'limit', limit: 'pause', pause: 'normal' };
const HOURS = Array.from({ length: 24 }, (_, h) => h);
const CELL_WORD: Record<GridCell, string> = { normal: 'normal', limit: 'limited', pause: 'paused' };

/** The saved timetable read back into the 7 x 24 grid (each hour as it stands at its half past). */
function gridOf(s: Settings): { grid: GridCell[][]; scheduled: string } {
  const parsed = s.bwSchedule.trim() ? parseSchedule(s.bwSchedule) : null;
  const entries = parsed?.ok ? parsed.value : [];
  const rate = entries.find((e) => e.limit.kind === 'rate')?.limit;
  const base = parseLimit(s.bwlimit);
  const grid = DAYS.map((_, d) =>
    Array.from({ length: 24 }, (_, h): GridCell => {
      if (entries.length === 0) return 'normal';
      // 2026-11-22 is a Sunday: day d of that week, hour h.
      const l = limitAt(entries, new Date(2026, 10, 22 + d, h, 30).getTime()).limit;
      if (l.kind === 'pause') return 'pause';
      if (base.ok && JSON.stringify(l) === JSON.stringify(base.value)) return 'normal';
      return 'limit';
    }),
  );
  return { grid, scheduled: rate?.kind === 'rate' ? formatLimit(rate) : '512k' };
}

/** Upload limit, the tray's presets and the weekly schedule grid (Settings > Bandwidth). */
export function BandwidthSettings({
  settings,
  save,
}: {
  settings: Settings;
  save(p: Partial<Settings>): void;
}) {
  const initial = gridOf(settings);
  const [grid, setGrid] = useState(initial.grid);
  const [scheduled, setScheduled] = useState(initial.scheduled);
  const saveGrid = (g: GridCell[][], rate: string) => {
    const base = parseLimit(settings.bwlimit);
    const limited = parseLimit(rate);
    if (!base.ok || !limited.ok) return;
    const normal: Limit = base.value;
    save({ bwSchedule: formatSchedule(gridToSchedule(g, normal, limited.value)) });
  };
  const toggle = (d: number, h: number) => {
    const g = grid.map((row) => [...row]);
    g[d]![h] = NEXT[g[d]![h]!];
    setGrid(g);
    saveGrid(g, scheduled);
  };
  return (
    <section className="card stack" aria-labelledby="bw-title">
      <h2 id="bw-title">Bandwidth</h2>
      <label className="field">
        Upload limit (512k, 2M, or off)
        <input
          key={settings.bwlimit}
          defaultValue={settings.bwlimit}
          aria-label="Upload limit"
          onBlur={(e) => e.target.value !== settings.bwlimit && save({ bwlimit: e.target.value })}
        />
      </label>
      <div className="row">
        <label className="field">
          Tray preset “half”
          <input
            key={settings.bwPresetHalf}
            defaultValue={settings.bwPresetHalf}
            onBlur={(e) => e.target.value !== settings.bwPresetHalf && save({ bwPresetHalf: e.target.value })}
          />
        </label>
        <label className="field">
          Tray preset “low”
          <input
            key={settings.bwPresetLow}
            defaultValue={settings.bwPresetLow}
            onBlur={(e) => e.target.value !== settings.bwPresetLow && save({ bwPresetLow: e.target.value })}
          />
        </label>
      </div>
      <label className="field">
        Limit in the “limited” hours
        <input
          value={scheduled}
          aria-label="Scheduled limit"
          onChange={(e) => setScheduled(e.target.value)}
          onBlur={() => saveGrid(grid, scheduled)}
        />
      </label>
      <p className="muted small">Click an hour: normal, limited, paused.</p>
      <div style={{ overflowX: 'auto' }}>
        <table
          className="bw-grid"
          aria-label="Weekly schedule"
          style={{ borderCollapse: 'collapse', fontSize: '0.7rem' }}
        >
          <thead>
            <tr>
              <th />
              {HOURS.map((h) => (
                <th key={`h${h}`} style={{ fontWeight: 400 }}>
                  {h % 3 === 0 ? h : ''}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {DAYS.map((day, d) => (
              <tr key={day}>
                <th style={{ fontWeight: 500, paddingRight: '0.4rem' }}>{day}</th>
                {HOURS.map((h) => ({ h, c: grid[d]![h]! })).map(({ h, c }) => (
                  <td key={`${day}-${String(h)}`} style={{ padding: 1 }}>
                    <button
                      type="button"
                      data-cell={c}
                      aria-label={`${day} ${h}:00 ${CELL_WORD[c]}`}
                      onClick={() => toggle(d, h)}
                      style={{
                        width: '1.1rem',
                        height: '1.1rem',
                        padding: 0,
                        border: '1px solid var(--border, #8884)',
                        borderRadius: 2,
                        background:
                          c === 'pause'
                            ? 'var(--danger, #c33)'
                            : c === 'limit'
                              ? 'var(--warn, #d90)'
                              : 'transparent',
                      }}
                    />
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <p className="muted small mono" data-testid="bw-schedule-text">
        {settings.bwSchedule || 'No schedule: the upload limit applies at all hours.'}
      </p>
    </section>
  );
}
