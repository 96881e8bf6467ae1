import { type AppError, appError, err, ok, type Result } from '../errors';

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

/** What the schedule says at `at` (local time), and when that changes (null: never). No entry: no limit. */
export function limitAt(
  entries: readonly ScheduleEntry[],
  at: number,
): { limit: Limit; until: number | null } {
  if (entries.length === 0) return { limit: { kind: 'off' }, until: null };
  // Every-day entries stand for seven entries; a day's own entry at the same minute wins.
  const points: Array<{ w: number; limit: Limit; daily: boolean }> = [];
  for (const e of entries) {
    const days = e.day === null ? [0, 1, 2, 3, 4, 5, 6] : [e.day];
    for (const d of days) points.push({ w: d * 1440 + e.minute, limit: e.limit, daily: e.day === null });
  }
  points.sort((a, b) => a.w - b.w || Number(b.daily) - Number(a.daily));
  const d = new Date(at);
  const nowW = d.getDay() * 1440 + d.getHours() * 60 + d.getMinutes();
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
  const startOfMinute = new Date(d.getFullYear(), d.getMonth(), d.getDate(), d.getHours(), d.getMinutes());
  const until = new Date(startOfMinute);
  until.setMinutes(until.getMinutes() + next);
  return { limit: cur.limit, until: until.getTime() };
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
 * The Settings grid (7 days x 24 hours, each hour `normal`, `limit` or `pause`) as timetable
 * entries: one entry where a day's hour differs from the hour before it (the week wraps around).
 * `normal` is the everyday limit; `limit` the schedule's own rate.
 */
export type GridCell = 'normal' | 'limit' | 'pause';
export function gridToSchedule(
  grid: readonly (readonly GridCell[])[],
  normal: Limit,
  scheduled: Limit,
): ScheduleEntry[] {
  const flat = grid.flat();
  if (flat.every((c) => c === 'normal')) return [];
  const out: ScheduleEntry[] = [];
  for (let i = 0; i < flat.length; i++) {
    const prev = flat[(i - 1 + flat.length) % flat.length];
    if (flat[i] === prev && i !== 0) continue;
    const c = flat[i]!;
    out.push({
      day: Math.floor(i / 24),
      minute: (i % 24) * 60,
      limit: c === 'pause' ? { kind: 'pause' } : c === 'limit' ? scheduled : normal,
    });
  }
  return out;
}
