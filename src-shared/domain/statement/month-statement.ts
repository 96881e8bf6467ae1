import type {
  Breakdown,
  Share,
  Statement,
  StatementCredit,
  StatementDay,
  StatementFlag,
} from '../../contract/statement';
import { formatBytes } from '../bytes';
import { DAY_MS, formatIstDate, parseIst } from '../ist-time';
import { formatRupees, type Paise } from '../money';
import { formatIstTime, formatIstTimeSeconds, formatServiceDate } from '../time-format';
import { describeRule, learnRule, type RentRule, ruleKey, ruleRent } from './rent-rules';

/** A run of /me reads with the same figures, first and last on the service's clock. */
export interface MeReadRun {
  firstMs: number;
  lastMs: number;
  balancePaise: Paise;
  arrearsPaise: Paise;
  perGbMonthPaise: Paise;
  bytesUsed: number;
}

export interface UsageDay {
  date: string;
  bytesUsed: number;
  filesCount: number;
  rentPaise: Paise;
  outcome: string;
}

/** A file the app's index held: created (the service's date), gone (when the index saw it go). */
export interface FileLife {
  id: number;
  name: string;
  bucket: string;
  extension: string;
  size: number;
  createdMs: number;
  goneMs: number | null;
  /** The watched folder it was sent from, if any. */
  folder: string | null;
}

export interface StatementInput {
  account: Statement['account'];
  month: string;
  /** The service's clock now. */
  nowMs: number;
  reads: readonly MeReadRun[];
  /** Every usage day the app has read for the account (all months: the rule is learnt from them all). */
  days: readonly UsageDay[];
  files: readonly FileLife[];
  /** Extra copies of the same bytes among the live files (the duplicates card's). */
  duplicates: { extraCopies: number; bytes: number };
}

/** A window between two reads longer than this is a time the app did not look. */
const GAP_MS = 26 * 3_600_000;
const LARGEST = 10;
/** The remainder of every list: files the index never saw, and the paise lost rounding each share down. */
export const OTHER = 'other files';

const midnightOf = (date: string): number => parseIst(`${date} 00:00`)!;
/** The charge of a day is made at the IST midnight that ends it. */
const chargeAt = (date: string): number => midnightOf(date) + DAY_MS;

export function monthDays(month: string): string[] {
  const [y, m] = month.split('-').map(Number) as [number, number];
  const n = new Date(Date.UTC(y, m, 0)).getUTCDate();
  return Array.from({ length: n }, (_, i) => `${month}-${String(i + 1).padStart(2, '0')}`);
}

export const monthOf = (ms: number): string => formatIstDate(ms).slice(0, 7);

/**
 * The statement of one month (issue 35; docs/statement.md). The wallet's position is balance minus
 * arrears (in arrears the balance is 0): every day's rent lowers it, a credit raises it. Between two
 * /me reads, the rise not explained by the rent charged in between is a credit, dated to that window.
 * The opening is the last read before the month rolled forward by the rent charged until the month
 * began, the closing the last read before its end rolled forward the same way, so opening + credits -
 * rent = closing holds by construction, and a credit belongs to the month whose read first saw it.
 */
export function buildStatement(input: StatementInput): Statement {
  const dates = monthDays(input.month);
  const start = midnightOf(dates[0]!);
  const end = chargeAt(dates.at(-1)!);
  const endEff = Math.min(end, input.nowMs);
  const byDate = new Map(input.days.map((d) => [d.date, d]));
  const unknowns: string[] = [];

  const reads = [...input.reads].sort((a, b) => a.firstMs - b.firstMs);
  const points = reads.flatMap((r) => {
    const pos = r.balancePaise - r.arrearsPaise;
    return r.lastMs > r.firstMs
      ? [
          { t: r.firstMs, pos, r },
          { t: r.lastMs, pos, r },
        ]
      : [{ t: r.firstMs, pos, r }];
  });
  const watchingFrom = points[0]?.t ?? Number.POSITIVE_INFINITY;

  // The price in force at a moment: the last read at or before it, else the first read.
  const priceAt = (t: number): Paise | null => {
    let p: Paise | null = reads[0]?.perGbMonthPaise ?? null;
    for (const r of reads) if (r.firstMs <= t) p = r.perGbMonthPaise;
    return p;
  };

  const seen = input.days
    .map((d) => ({ d, price: priceAt(chargeAt(d.date)) }))
    .filter((x): x is { d: UsageDay; price: Paise } => x.price !== null)
    .map(({ d, price }) => ({
      date: d.date,
      bytesUsed: d.bytesUsed,
      rentPaise: d.rentPaise,
      perGbMonthPaise: price,
    }));
  const learned = learnRule(seen);
  const rule = learned.rule;

  // Rent charged in (a, b]: null when a day charged in it was never read.
  const rentBetween = (a: number, b: number): Paise | null => {
    if (b <= a) return 0;
    let sum = 0;
    for (let day = midnightOf(formatIstDate(a)) - DAY_MS; day + DAY_MS <= b; day += DAY_MS) {
      const at = day + DAY_MS;
      if (at <= a) continue;
      const date = formatIstDate(day);
      const u = byDate.get(date);
      if (!u) return null;
      sum += u.rentPaise;
    }
    return sum;
  };

  // The days.
  const flags: StatementFlag[] = [];
  const days: StatementDay[] = dates.map((date) => {
    const at = chargeAt(date);
    const u = byDate.get(date) ?? null;
    const future = at > input.nowMs;
    const own = !future && at >= watchingFrom ? liveAt(input.files, at) : null;
    const price = priceAt(at);
    const expected = own && price !== null ? ruleRent(rule, own.bytesUsed, price, date) : null;
    const dayFlags: StatementFlag[] = [];
    if (u && price !== null) {
      const fromMeasured = ruleRent(rule, u.bytesUsed, price, date);
      if (fromMeasured !== u.rentPaise) {
        const diff = u.rentPaise - fromMeasured;
        dayFlags.push({
          date,
          kind: 'charge',
          differencePaise: diff,
          differenceBytes: 0,
          sentence: `${formatServiceDate(date)}: charged ${formatRupees(u.rentPaise)} for ${formatBytes(u.bytesUsed)}; the rule found gives ${formatRupees(fromMeasured)} (${diff > 0 ? 'over' : 'under'} by ${formatRupees(Math.abs(diff))}).`,
        });
      }
      if (own && own.bytesUsed !== u.bytesUsed && own.bytesIfGoneBefore !== u.bytesUsed) {
        const diffBytes = u.bytesUsed - own.bytesUsed;
        const diff = u.rentPaise - (expected ?? 0);
        dayFlags.push({
          date,
          kind: 'bytes',
          differencePaise: diff,
          differenceBytes: diffBytes,
          sentence: `${formatServiceDate(date)}: the service measured ${formatBytes(u.bytesUsed)}, the app's index held ${formatBytes(own.bytesUsed)} live at that midnight (${diffBytes > 0 ? 'more' : 'less'} by ${formatBytes(Math.abs(diffBytes))}, ${formatRupees(Math.abs(diff))} of rent).`,
        });
      }
    }
    flags.push(...dayFlags);
    return {
      date,
      measured: u
        ? { bytesUsed: u.bytesUsed, filesCount: u.filesCount, rentPaise: u.rentPaise, outcome: u.outcome }
        : null,
      own: own && { bytesUsed: own.bytesUsed, filesCount: own.filesCount },
      expectedRentPaise: expected,
      arrearsBookedPaise: null,
      flags: dayFlags,
      future,
    };
  });
  const charged = days.filter((d) => !d.future);
  const missing = charged.filter((d) => !d.measured).map((d) => d.date);
  if (missing.length)
    unknowns.push(
      `No usage snapshot read for ${missing.length === 1 ? missing[0] : `${missing.length} days (${missing[0]} to ${missing.at(-1)})`}: the rent of ${missing.length === 1 ? 'that day' : 'those days'} is unknown.`,
    );
  const notWatched = charged.filter((d) => !d.own).map((d) => d.date);
  if (notWatched.length)
    unknowns.push(
      `The app was not running before ${formatIstTime(watchingFrom === Number.POSITIVE_INFINITY ? endEff : watchingFrom)}: its own figure for ${notWatched.length === 1 ? notWatched[0] : `${notWatched[0]} to ${notWatched.at(-1)}`} is unknown.`,
    );
  const rentPaise = charged.reduce((s, d) => s + (d.measured?.rentPaise ?? 0), 0);

  // The wallet: opening and closing from the reads, credits between them.
  const before = (t: number) => points.filter((p) => p.t <= t).at(-1) ?? null;
  const a = before(start);
  const z = before(endEff);
  const rollA = a ? rentBetween(a.t, start) : null;
  const openingPaise = a && rollA !== null ? a.pos - rollA : null;
  if (!a) unknowns.push('The app read no balance before this month began: the opening balance is unknown.');
  const rollZ = z ? rentBetween(z.t, endEff) : null;
  const closingPaise = z && rollZ !== null ? z.pos - rollZ : null;

  const credits: StatementCredit[] = [];
  const gaps: { fromMs: number; toMs: number }[] = [];
  let creditsKnown = true;
  for (let i = 0; i + 1 < points.length; i++) {
    const p = points[i]!;
    const q = points[i + 1]!;
    if (q.t > endEff || (a ? q.t <= a.t : q.t <= start)) continue;
    if (q.t - p.t > GAP_MS) gaps.push({ fromMs: p.t, toMs: q.t });
    if (q.pos === p.pos && rentBetween(p.t, q.t) === 0) continue;
    const rent = rentBetween(p.t, q.t);
    if (rent === null) {
      creditsKnown = false;
      continue;
    }
    const amount = q.pos - p.pos + rent;
    if (amount === 0) continue;
    // Arrears the credit paid: those the wallet held before it, after the rent charged since.
    const owed = Math.max(0, -(p.pos - rent));
    credits.push({
      fromMs: p.t,
      toMs: q.t,
      amountPaise: amount,
      arrearsPaidPaise: amount > 0 ? Math.min(amount, owed) : 0,
      inferred: true,
    });
  }
  if (!creditsKnown)
    unknowns.push(
      'A window between two reads holds a day whose rent was never read: a credit in it is unknown.',
    );
  if (gaps.length)
    unknowns.push(
      `The app did not read the account for more than a day ${gaps.length === 1 ? 'once' : `${gaps.length} times`}: a credit then is dated only to its window.`,
    );
  const creditsPaise = credits.reduce((s, c) => s + c.amountPaise, 0);

  // Arrears booked, day by day, walking the position from read to read (the service's rule: a day the
  // wallet cannot cover takes what it holds and books the rest).
  let arrearsBookedPaise = 0;
  if (a) {
    let pos = a.pos;
    let next = points.indexOf(a) + 1;
    for (let day = midnightOf(formatIstDate(a.t)); day + DAY_MS <= endEff; day += DAY_MS) {
      const at = day + DAY_MS;
      if (at <= a.t) continue;
      while (next < points.length && points[next]!.t < at) pos = points[next++]!.pos;
      const date = formatIstDate(day);
      const u = byDate.get(date);
      if (!u) break;
      const booked = u.outcome === 'ARREARS' || pos < u.rentPaise ? u.rentPaise - Math.max(0, pos) : 0;
      pos -= u.rentPaise;
      const d = days.find((x) => x.date === date);
      if (d) {
        d.arrearsBookedPaise = Math.max(0, booked);
        arrearsBookedPaise += Math.max(0, booked);
      }
    }
  }
  const arrearsPaidPaise = credits.reduce((s, c) => s + c.arrearsPaidPaise, 0);

  const balances =
    openingPaise !== null &&
    closingPaise !== null &&
    creditsKnown &&
    missing.length === 0 &&
    openingPaise + creditsPaise - rentPaise === closingPaise;

  const latest = reads.at(-1);
  return {
    account: input.account,
    month: input.month,
    builtAtMs: input.nowMs,
    complete: input.nowMs >= end,
    openingPaise,
    closingPaise,
    rentPaise,
    creditsPaise,
    arrearsBookedPaise,
    arrearsPaidPaise,
    balances,
    days,
    credits,
    gaps,
    unknowns,
    rule: {
      rule,
      sentence: ruleSentence(rule, learned.fits, learned.of),
      fits: learned.fits,
      of: learned.of,
      alsoFit: learned.alsoFit.map(ruleKey),
    },
    flags,
    breakdown: breakdown(
      input,
      days,
      rule,
      latest ? { bytes: latest.bytesUsed, price: latest.perGbMonthPaise } : null,
    ),
  };
}

function ruleSentence(rule: RentRule, fits: number, of: number): string {
  if (of === 0) return `No charged day read yet; assumed: ${describeRule(rule)}.`;
  return `Found from ${of} charged day${of === 1 ? '' : 's'} (${fits} fit): ${describeRule(rule)}.`;
}

/**
 * A running app notices a delete made elsewhere within two of its index keeper's periods (90 s); its
 * `goneMs` is when it noticed. A file that left the index this soon after a midnight may have gone
 * before it, so a day whose measure matches the index without those files is not flagged.
 */
const NOTICED_WITHIN_MS = 3 * 60_000;

function liveAt(
  files: readonly FileLife[],
  at: number,
): { bytesUsed: number; filesCount: number; bytesIfGoneBefore: number } {
  let bytesUsed = 0;
  let filesCount = 0;
  let maybeGone = 0;
  for (const f of files)
    if (f.createdMs < at && (f.goneMs === null || f.goneMs >= at)) {
      bytesUsed += f.size;
      filesCount++;
      if (f.goneMs !== null && f.goneMs < at + NOTICED_WITHIN_MS) maybeGone += f.size;
    }
  return { bytesUsed, filesCount, bytesIfGoneBefore: bytesUsed - maybeGone };
}

/**
 * Where the month's rent went: each day's rent split over the files live at its midnight by their
 * bytes, summed by bucket, watched folder, type and file. A share is rounded down to paise; what the
 * index cannot place (files it never saw, the paise of rounding) is "other files", so every list adds
 * up to the month's rent.
 */
function breakdown(
  input: StatementInput,
  days: StatementDay[],
  rule: RentRule,
  latest: { bytes: number; price: Paise } | null,
): Breakdown {
  const total = days.reduce((s, d) => s + (d.future ? 0 : (d.measured?.rentPaise ?? 0)), 0);
  const rentOf = new Map<number, number>();
  let lastAt = 0;
  for (const d of days) {
    if (d.future || !d.measured || d.measured.bytesUsed <= 0) continue;
    const at = chargeAt(d.date);
    lastAt = at;
    for (const f of input.files)
      if (f.createdMs < at && (f.goneMs === null || f.goneMs >= at))
        rentOf.set(f.id, (rentOf.get(f.id) ?? 0) + (d.measured.rentPaise * f.size) / d.measured.bytesUsed);
  }
  const liveEnd = (f: FileLife) =>
    lastAt ? f.createdMs < lastAt && (f.goneMs === null || f.goneMs >= lastAt) : f.goneMs === null;
  const group = (key: (f: FileLife) => string): Share[] => {
    const m = new Map<string, { bytes: number; rent: number }>();
    for (const f of input.files) {
      const rent = rentOf.get(f.id) ?? 0;
      const live = liveEnd(f);
      if (!rent && !live) continue;
      const g = m.get(key(f)) ?? { bytes: 0, rent: 0 };
      g.bytes += live ? f.size : 0;
      g.rent += rent;
      m.set(key(f), g);
    }
    return [...m.entries()]
      .map(([label, g]) => ({ label, bytes: g.bytes, rentPaise: Math.floor(g.rent + 1e-9) }))
      .sort((x, y) => y.rentPaise - x.rentPaise || y.bytes - x.bytes || x.label.localeCompare(y.label));
  };
  // Each list ends with what it could not place, so it adds up to the month's rent.
  const withOther = (list: Share[]): Share[] => {
    const placed = list.reduce((sum, x) => sum + x.rentPaise, 0);
    return [...list, { label: OTHER, bytes: 0, rentPaise: total - placed }];
  };
  const byFile = group((f) => String(f.id));
  const named = new Map(input.files.map((f) => [String(f.id), `${f.bucket}/${f.name}`]));
  const byBucket = withOther(group((f) => f.bucket));
  const largest = input.files
    .filter(liveEnd)
    .sort((x, y) => y.size - x.size || x.id - y.id)
    .slice(0, LARGEST)
    .map((f) => ({
      label: named.get(String(f.id))!,
      bytes: f.size,
      rentPaise: byFile.find((b) => b.label === String(f.id))?.rentPaise ?? 0,
    }));
  const saving =
    latest && input.duplicates.bytes > 0
      ? (ruleRent(rule, latest.bytes, latest.price, input.month + '-01') -
          ruleRent(
            rule,
            Math.max(0, latest.bytes - input.duplicates.bytes),
            latest.price,
            input.month + '-01',
          )) *
        30
      : 0;
  return {
    byBucket,
    byFolder: withOther(group((f) => f.folder ?? 'not from a watched folder')),
    byType: withOther(group((f) => f.extension || '(none)')),
    largest,
    otherPaise: byBucket.at(-1)!.rentPaise,
    totalPaise: total,
    duplicates: { ...input.duplicates, savingPerMonthPaise: saving },
  };
}

/** When a credit happened, as far as the reads tell: their window, to the second when in one minute. */
export function creditWindowText(fromMs: number, toMs: number): string {
  if (formatIstTime(fromMs) !== formatIstTime(toMs))
    return `between ${formatIstTime(fromMs)} and ${formatIstTime(toMs)}`;
  return `between ${formatIstTimeSeconds(fromMs)} and ${formatIstTimeSeconds(toMs).replace(/^.*, /, '')}`;
}
