import { type AppError, appError, err, ok, type Result } from '../errors';
import { istWallClock, localWallClock } from './ist-time';

/**
 * Upload limits and their weekly schedule, in rclone's words: a rate is `512k`, `2M`, `1.5M`, `off`
 * (no limit), and a timetable is `"08:00,512k 19:00,off"`, an entry optionally prefixed by a day
 * (`Mon-08:00,512k`). One addition of ours: `pause` (nothing is sent in that window).
 * A bare number is KiB/s, as in rclone.
 */
export type Limit = { kind: 'off' } | { kind: 'pause' } | { kind: 'rate'; bytesPerSecond: number };

export interface ScheduleEntry {
  /** 0 = Sunday ... 6 = Saturday (Date#getDay); null: every day. */
  day: number | null;
  /** Minutes after midnight, local time. */
  minute: number;
  limit: Limit;
}

export const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'] as const;
const UNITS: Record<string, number> = { b: 1, k: 1024, m: 1024 ** 2, g: 1024 ** 3 };
/** Below this a 64 KiB slice would wait longer than the upload's idle timeout. */
export const MIN_RATE_BYTES = 1024;

export function parseLimit(text: string): Result<Limit> {
  const t = text.trim().toLowerCase();
  if (t === 'off' || t === 'unlimited' || t === '') return ok({ kind: 'off' });
  if (t === 'pause' || t === 'paused') return ok({ kind: 'pause' });
  const m = /^(\d+(?:\.\d+)?)([bkmg])?(?:i?b(?:\/s)?)?$/.exec(t);
  if (!m) return err(badRate(text));
  const bytes = Math.round(Number(m[1]) * UNITS[m[2] ?? 'k']!);
  if (!Number.isFinite(bytes) || bytes < MIN_RATE_BYTES)
    return err(
      appError('BWLIMIT-TOO-LOW', `"${text}" is under 1k (1 KiB/s); use at least 1k, "pause" or "off".`),
    );
  return ok({ kind: 'rate', bytesPerSecond: bytes });
}

function badRate(text: string): AppError {
  return appError(
    'BWLIMIT-BAD-RATE',
    `"${text}" is not a rate: write a number with k, M or G (KiB/s, MiB/s, GiB/s), such as 512k or 2M, or "off" or "pause".`,
  );
}

/** `--bwlimit` text: one rate for the whole run, or a timetable of `[Day-]HH:MM,rate` entries. */
export function parseBwlimit(text: string): Result<{ limit: Limit } | { schedule: ScheduleEntry[] }> {
  const t = text.trim();
  if (!t.includes(',') && !t.includes(':')) {
    const l = parseLimit(t);
    return l.ok ? ok({ limit: l.value }) : l;
  }
  const r = parseSchedule(t);
  return r.ok ? ok({ schedule: r.value }) : r;
}

export function parseSchedule(text: string): Result<ScheduleEntry[]> {
  const entries: ScheduleEntry[] = [];
  for (const part of text.trim().split(/\s+/)) {
    const m = /^(?:([A-Za-z]{3})-)?(\d{1,2}):(\d{2}),(.+)$/.exec(part);
    if (!m)
      return err(
        appError(
          'BWLIMIT-BAD-ENTRY',
          `"${part}" is not a timetable entry: write HH:MM,rate (e.g. 08:00,512k) or Day-HH:MM,rate (e.g. Mon-08:00,2M).`,
        ),
      );
    let day: number | null = null;
    if (m[1]) {
      day = DAYS.findIndex((d) => d.toLowerCase() === m[1]!.toLowerCase());
      if (day < 0)
        return err(
          appError('BWLIMIT-BAD-DAY', `"${m[1]}" in "${part}" is not a day: use ${DAYS.join(', ')}.`),
        );
    }
    const h = Number(m[2]);
    const min = Number(m[3]);
    if (h > 23 || min > 59)
      return err(
        appError('BWLIMIT-BAD-TIME', `"${m[2]}:${m[3]}" in "${part}" is not a time of day (00:00 to 23:59).`),
      );
    const limit = parseLimit(m[4]!);
    if (!limit.ok) return limit;
    entries.push({ day, minute: h * 60 + min, limit: limit.value });
  }
  if (entries.length === 0) return err(appError('BWLIMIT-EMPTY', 'The timetable has no entry.'));
  return ok(entries);
}

const WEEK_MINUTES = 7 * 24 * 60;

/**
 * Which clock a weekly schedule's days and hours are read on: the machine's own (`local`, daylight
 * saving included) or India Standard Time (`ist`, the service's clock, UTC+05:30 all year).
 */
export type ScheduleZone = 'local' | 'ist';

function wallClock(at: number, zone: ScheduleZone) {
  return zone === 'ist' ? istWallClock(at) : localWallClock(at);
}

/** What the schedule says at `at` (read on `zone`'s clock), and when that changes (null: never). No entry: no limit. */
export function limitAt(
  entries: readonly ScheduleEntry[],
  at: number,
  zone: ScheduleZone = 'local',
): { limit: Limit; until: number | null } {
  if (entries.length === 0) return { limit: { kind: 'off' }, until: null };
  // Every-day entries stand for seven entries; a day's own entry at the same minute wins.
  const points: Array<{ w: number; limit: Limit; daily: boolean }> = [];
  for (const e of entries) {
    const days = e.day === null ? [0, 1, 2, 3, 4, 5, 6] : [e.day];
    for (const d of days) points.push({ w: d * 1440 + e.minute, limit: e.limit, daily: e.day === null });
  }
  points.sort((a, b) => a.w - b.w || Number(b.daily) - Number(a.daily));
  const w = wallClock(at, zone);
  const nowW = w.day * 1440 + w.hour * 60 + w.minute;
  let cur = points[points.length - 1]!;
  for (const p of points) if (p.w <= nowW) cur = p;
  // The next point whose limit differs from the current one.
  let next: number | null = null;
  for (const p of points) {
    if (sameLimit(p.limit, cur.limit)) continue;
    const ahead = (p.w - nowW + WEEK_MINUTES) % WEEK_MINUTES || WEEK_MINUTES;
    if (next === null || ahead < next) next = ahead;
  }
  if (next === null) return { limit: cur.limit, until: null };
  if (zone === 'ist') {
    // A fixed offset in whole minutes: minute edges are UTC's.
    return { limit: cur.limit, until: at - (at % 60_000) + next * 60_000 };
  }
  // Local time: the calendar steps over a daylight-saving change.
  const until = new Date(w.year, w.month, w.date, w.hour, w.minute);
  until.setMinutes(until.getMinutes() + next);
  return { limit: cur.limit, until: until.getTime() };
}

/**
 * The timetable's windows after `at` within `horizonMs` (at most `max`): from each `at` on, its limit, until
 * the next. What the estimate of time left reads ahead of now (time-left.ts); the last lasts past the horizon.
 */
export function windowsAhead(
  entries: readonly ScheduleEntry[],
  at: number,
  zone: ScheduleZone = 'local',
  horizonMs = 7 * 24 * 3_600_000,
  max = 64,
): { at: number; limit: Limit }[] {
  const out: { at: number; limit: Limit }[] = [];
  let t = at;
  while (out.length < max) {
    const { until } = limitAt(entries, t, zone);
    if (until === null || until <= t || until > at + horizonMs) break;
    out.push({ at: until, limit: limitAt(entries, until, zone).limit });
    t = until;
  }
  return out;
}

export function sameLimit(a: Limit, b: Limit): boolean {
  if (a.kind !== b.kind) return false;
  return a.kind !== 'rate' || a.bytesPerSecond === (b as { bytesPerSecond: number }).bytesPerSecond;
}

/** `512k`, `2M`, `1.5M`, `off`, `pause`: the inverse of parseLimit (rclone's spelling). */
export function formatLimit(l: Limit): string {
  if (l.kind !== 'rate') return l.kind;
  const b = l.bytesPerSecond;
  if (b >= 1024 ** 2) return `${+(b / 1024 ** 2).toFixed(2)}M`;
  return `${+(b / 1024).toFixed(2)}k`;
}

/** For people: "512 KiB/s", "2 MiB/s". */
export function limitText(l: Limit): string {
  if (l.kind === 'off') return 'Unlimited';
  if (l.kind === 'pause') return 'Paused';
  const b = l.bytesPerSecond;
  return b >= 1024 ** 2 ? `${+(b / 1024 ** 2).toFixed(2)} MiB/s` : `${+(b / 1024).toFixed(1)} KiB/s`;
}

export function formatSchedule(entries: readonly ScheduleEntry[]): string {
  return entries
    .map((e) => {
      const hh = String(Math.floor(e.minute / 60)).padStart(2, '0');
      const mm = String(e.minute % 60).padStart(2, '0');
      return `${e.day === null ? '' : `${DAYS[e.day]}-`}${hh}:${mm},${formatLimit(e.limit)}`;
    })
    .join(' ');
}

/**
 * The app's weekly schedule (Settings > Bandwidth): each hour of the week is `normal` (the upload
 * limit), `limited` (the limited hours' own limit) or `pause`. The text names the kind of hour, never
 * a rate, so changing either limit changes every hour of that kind and turning the upload limit off
 * turns the normal hours unlimited: "Mon-09:00,limited Mon-17:00,normal Sat-00:00,pause". Days are
 * required; the hours are read on the schedule's zone. One entry where an hour differs from the one
 * before it (the week wraps around); an empty text is no schedule.
 */
export type GridCell = 'normal' | 'limited' | 'pause';
export const GRID_CELLS: readonly GridCell[] = ['normal', 'limited', 'pause'];
export interface WeekEntry {
  day: number;
  minute: number;
  cell: GridCell;
}

export function parseWeekSchedule(text: string): Result<WeekEntry[]> {
  const t = text.trim();
  if (t === '') return ok([]);
  const out: WeekEntry[] = [];
  for (const part of t.split(/\s+/)) {
    const m = /^([A-Za-z]{3})-(\d{1,2}):(\d{2}),([a-z]+)$/i.exec(part);
    const day = m ? DAYS.findIndex((d) => d.toLowerCase() === m[1]!.toLowerCase()) : -1;
    const cell = (m?.[4] ?? '').toLowerCase() as GridCell;
    if (!m || day < 0 || Number(m[2]) > 23 || Number(m[3]) > 59 || !GRID_CELLS.includes(cell))
      return err(
        appError(
          'BWSCHEDULE-BAD-ENTRY',
          `"${part}" is not an hour of the schedule: write Day-HH:MM followed by normal, limited or pause (e.g. Mon-09:00,limited).`,
        ),
      );
    out.push({ day, minute: Number(m[2]) * 60 + Number(m[3]), cell });
  }
  return ok(out);
}

export function formatWeekSchedule(entries: readonly WeekEntry[]): string {
  const p2 = (n: number) => String(n).padStart(2, '0');
  return entries
    .map((e) => `${DAYS[e.day]}-${p2(Math.floor(e.minute / 60))}:${p2(e.minute % 60)},${e.cell}`)
    .join(' ');
}

/** The 7 x 24 grid (each hour as it stands at its half past) of a schedule. */
export function weekGrid(entries: readonly WeekEntry[]): GridCell[][] {
  const sorted = [...entries].sort((a, b) => a.day * 1440 + a.minute - (b.day * 1440 + b.minute));
  return DAYS.map((_, d) =>
    Array.from({ length: 24 }, (_, h): GridCell => {
      if (sorted.length === 0) return 'normal';
      const w = d * 1440 + h * 60 + 30;
      let cur = sorted[sorted.length - 1]!;
      for (const e of sorted) if (e.day * 1440 + e.minute <= w) cur = e;
      return cur.cell;
    }),
  );
}

/** The grid as schedule entries; an all-normal grid is no schedule. */
export function gridToWeek(grid: readonly (readonly GridCell[])[]): WeekEntry[] {
  const flat = grid.flat();
  if (flat.every((c) => c === 'normal')) return [];
  const out: WeekEntry[] = [];
  for (let i = 0; i < flat.length; i++) {
    if (i !== 0 && flat[i] === flat[i - 1]) continue;
    out.push({ day: Math.floor(i / 24), minute: (i % 24) * 60, cell: flat[i]! });
  }
  return out;
}

/** The engine's timetable: each kind of hour given the rate in force for it now. */
export function resolveWeek(entries: readonly WeekEntry[], normal: Limit, limited: Limit): ScheduleEntry[] {
  return entries.map((e) => ({
    day: e.day,
    minute: e.minute,
    limit: e.cell === 'pause' ? { kind: 'pause' } : e.cell === 'limited' ? limited : normal,
  }));
}

/**
 * A schedule saved before issue 23, with rates in it ("Sun-00:00,2M Fri-12:00,off"), as the kinds of
 * hour it meant: the upload limit's rate is `normal` (as is `off`), `pause` stays, any other rate is
 * `limited` and becomes the limited hours' limit. Null when the text is not of that form.
 */
export function weekFromRates(
  text: string,
  bwlimit: string,
): { schedule: string; limitedRate: string | null } | null {
  const parsed = parseSchedule(text);
  const base = parseLimit(bwlimit);
  if (!parsed.ok) return null;
  let limitedRate: string | null = null;
  const cells: WeekEntry[] = [];
  for (const e of parsed.value) {
    const days = e.day === null ? [0, 1, 2, 3, 4, 5, 6] : [e.day];
    const normal = e.limit.kind === 'off' || (base.ok && sameLimit(e.limit, base.value));
    const cell: GridCell = e.limit.kind === 'pause' ? 'pause' : normal ? 'normal' : 'limited';
    if (cell === 'limited' && limitedRate === null) limitedRate = formatLimit(e.limit);
    for (const day of days) cells.push({ day, minute: e.minute, cell });
  }
  // Re-read through the grid so that the result is in the one canonical form.
  return { schedule: formatWeekSchedule(gridToWeek(weekGrid(cells))), limitedRate };
}

const DAY_WORDS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'] as const;
const CELL_WORDS: Record<GridCell, string> = { normal: 'normal hours', limited: 'limited', pause: 'paused' };

/**
 * A weekly schedule in words, for the line under the grid (issue 34: it showed its own text, "Sun-00:00,
 * normal Sat-21:00,pause"): "Normal hours from Sunday 00:00, paused from Saturday 21:00, limited from
 * Saturday 22:00, the week then wrapping around." The text stays in the line's tooltip and the settings file.
 */
export function weekScheduleText(entries: readonly WeekEntry[]): string {
  if (entries.length === 0) return 'No schedule: the upload limit applies at all hours.';
  const p2 = (n: number) => String(n).padStart(2, '0');
  const parts = entries.map(
    (e) =>
      `${CELL_WORDS[e.cell]} from ${DAY_WORDS[e.day]} ${p2(Math.floor(e.minute / 60))}:${p2(e.minute % 60)}`,
  );
  const text = parts.join(', ');
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}, the week then starting again.`;
}

/**
 * Whether the limited hours' limit lets more through than the normal one (issue 34: taken without a
 * word): "limited" then uploads faster than "normal". Off (no limit) in the limited hours beside a
 * normal rate is faster too; a limit that does not parse is for its own field's error, not this.
 */
export function limitedFasterThanNormal(normalText: string, limitedText: string): boolean {
  const n = parseLimit(normalText);
  const l = parseLimit(limitedText);
  if (!n.ok || !l.ok || n.value.kind === 'off' || n.value.kind === 'pause') return false;
  if (l.value.kind === 'off') return true;
  return l.value.kind === 'rate' && l.value.bytesPerSecond > n.value.bytesPerSecond;
}
