import { type KeyboardEvent, useEffect, useRef, useState } from 'react';
import type { Settings } from '../../../src-shared/contract';
import {
  DAYS,
  formatWeekSchedule,
  type GridCell,
  gridToWeek,
  parseWeekSchedule,
  weekGrid,
} from '../../../src-shared/domain/bwlimit';
import type { SaveSettings } from './use-settings-save';

const HOURS = Array.from({ length: 24 }, (_, h) => h);
const DAY_NAMES = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const WORD: Record<GridCell, string> = { normal: 'normal', limited: 'limited', pause: 'paused' };
/** A mark besides the colour: a limited hour is half filled and says L, a paused one is filled and says P. */
const MARK: Record<GridCell, string> = { normal: '', limited: 'L', pause: 'P' };

type Cells = ReadonlyArray<readonly [number, number]>;

/**
 * The 7 x 24 weekly grid. A brush (normal, limited, paused) is painted on an hour by a click, on many
 * by a drag, on a whole day or a whole hour of every day by its heading; painting hours that already
 * all have the brush makes them normal again. By keyboard: arrow keys (Home/End, PageUp/PageDown) move
 * between hours, Space or Enter paints. "Clear schedule" makes every hour normal. The day names stay in
 * view when the grid scrolls sideways.
 */
export function WeekGrid({ settings, save }: { settings: Settings; save: SaveSettings }) {
  const parsed = parseWeekSchedule(settings.bwSchedule);
  const saved = weekGrid(parsed.ok ? parsed.value : []);
  const [brush, setBrush] = useState<GridCell>('limited');
  const [draft, setDraft] = useState<GridCell[][] | null>(null);
  const [focus, setFocus] = useState<[number, number]>([1, 9]);
  const drag = useRef<{ to: GridCell; grid: GridCell[][] } | null>(null);
  const table = useRef<HTMLTableElement>(null);
  const grid = draft ?? saved;

  const commit = (g: GridCell[][]) => void save({ bwSchedule: formatWeekSchedule(gridToWeek(g)) });
  /** The brush on these hours, or normal when they all have it already. */
  const paint = (cells: Cells) => {
    const to = cells.every(([d, h]) => grid[d]![h] === brush) ? 'normal' : brush;
    const g = grid.map((row) => [...row]);
    for (const [d, h] of cells) g[d]![h] = to;
    commit(g);
  };

  useEffect(() => {
    const end = () => {
      if (!drag.current) return;
      const g = drag.current.grid;
      drag.current = null;
      setDraft(null);
      commit(g);
    };
    window.addEventListener('pointerup', end);
    return () => window.removeEventListener('pointerup', end);
  });

  const startDrag = (d: number, h: number) => {
    const to = grid[d]![h] === brush ? 'normal' : brush;
    const g = grid.map((row) => [...row]);
    g[d]![h] = to;
    drag.current = { to, grid: g };
    setDraft(g);
    setFocus([d, h]);
  };
  const dragOver = (d: number, h: number) => {
    const dr = drag.current;
    if (!dr || dr.grid[d]![h] === dr.to) return;
    const g = dr.grid.map((row) => [...row]);
    g[d]![h] = dr.to;
    dr.grid = g;
    setDraft(g);
  };

  const move = (e: KeyboardEvent) => {
    const [d, h] = focus;
    const to: Record<string, [number, number]> = {
      ArrowLeft: [d, Math.max(0, h - 1)],
      ArrowRight: [d, Math.min(23, h + 1)],
      ArrowUp: [Math.max(0, d - 1), h],
      ArrowDown: [Math.min(6, d + 1), h],
      Home: [d, 0],
      End: [d, 23],
      PageUp: [0, h],
      PageDown: [6, h],
    };
    const next = to[e.key];
    if (!next) return;
    e.preventDefault();
    setFocus(next);
    table.current?.querySelector<HTMLButtonElement>(`[data-at="${next[0]}-${next[1]}"]`)?.focus();
  };

  const isEmpty = grid.every((row) => row.every((c) => c === 'normal'));
  return (
    <div className="stack week">
      <div className="row">
        <fieldset className="brush">
          <legend className="small">Mark hours as</legend>
          {(['limited', 'pause', 'normal'] as const).map((c) => (
            <label key={c} className="brush-choice">
              <input type="radio" name="bw-brush" checked={brush === c} onChange={() => setBrush(c)} />
              <span className="week-cell" data-cell={c} aria-hidden="true">
                {MARK[c]}
              </span>
              {WORD[c]}
            </label>
          ))}
        </fieldset>
        <span className="spacer" />
        <button
          type="button"
          className="btn"
          disabled={isEmpty}
          onClick={() => commit(saved.map((r) => r.map(() => 'normal')))}
        >
          Clear schedule
        </button>
      </div>
      <p className="muted small field-note">
        Click or drag over hours, or click a day or an hour heading for all of it. By keyboard: arrow keys,
        then Space.
      </p>
      <div className="week-scroll">
        <table
          ref={table}
          className="week-grid"
          aria-label="Weekly schedule"
          aria-describedby="bw-schedule-title"
          onKeyDown={move}
        >
          <thead>
            <tr>
              <td className="week-corner" />
              {HOURS.map((h) => (
                <th key={h} scope="col">
                  <button
                    type="button"
                    className="week-head"
                    aria-label={`Hour ${h}, every day`}
                    onClick={() => paint(DAYS.map((_, d) => [d, h] as const))}
                  >
                    {h % 3 === 0 ? h : ''}
                  </button>
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {DAYS.map((day, d) => (
              <tr key={day}>
                <th scope="row" className="week-day">
                  <button
                    type="button"
                    className="week-head"
                    aria-label={`${day}, all day (${DAY_NAMES[d]})`}
                    onClick={() => paint(HOURS.map((h) => [d, h] as const))}
                  >
                    {day}
                  </button>
                </th>
                {HOURS.map((h) => {
                  const c = grid[d]![h]!;
                  const here = focus[0] === d && focus[1] === h;
                  return (
                    <td key={h}>
                      <button
                        type="button"
                        className="week-cell"
                        data-cell={c}
                        data-at={`${d}-${h}`}
                        tabIndex={here ? 0 : -1}
                        aria-label={`${day} ${h}:00 ${WORD[c]}`}
                        onPointerDown={(e) => {
                          if (e.button !== 0) return;
                          e.preventDefault();
                          (e.target as HTMLElement).releasePointerCapture?.(e.pointerId);
                          startDrag(d, h);
                        }}
                        onPointerEnter={() => dragOver(d, h)}
                        onFocus={() => setFocus([d, h])}
                        onClick={(e) => {
                          // A pointer painted on pointerdown; a click with no pointer is the keyboard's.
                          if (e.detail === 0) paint([[d, h]]);
                        }}
                      >
                        {MARK[c]}
                      </button>
                    </td>
                  );
                })}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}
