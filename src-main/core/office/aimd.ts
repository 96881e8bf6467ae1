import { exponentialMs, OFFICE_PROBE_BACKOFF } from '../service/retry-policy';
/**
 * The office's ceiling, additive increase and multiplicative decrease (AIMD, as TCP shares a link): a 429
 * lowers it (at most once per `decreaseGapMs`, since one crowded moment answers several requests with 429),
 * clean periods raise it again, never above `max`. Requests nobody sees (a browser, a script, a desk of an
 * older version, desks that cannot see each other) spend the allowance too; a 429 is the only sign of them,
 * and it is read as a measurement: at that moment the address's window was full, and this ceiling's own
 * requests in it were `used` (the holder's window, or a desk alone's own). So the cut goes under what was
 * really sent (`beta` of the smaller of the ceiling and `used`), and everyone else's part of the address is
 * known for a while: the increase then depends on where the ceiling stands against that refused level R.
 *
 * - A minute after a cut: no increase (the service's window still counts the higher rate's requests).
 * - Below beta x R (after several cuts): 1 a minute every 30 s, times `f`.
 * - From beta x R to R: nothing for `quietMs` (five minutes) after the cut, then as below. The room that was
 *   measured is R less a margin; going back to R costs refused requests, each time (measured on
 *   bench:office hidden-6 and in the simulation, test/office/sim: a ceiling back at R beside a hidden
 *   consumer of 20 a minute was refused again within a minute).
 * - At R and above: as below, probing slowly whether the others left.
 * - `forgetMs` (ten minutes) after the last cut R is forgotten: `alpha` a period again.
 *
 * `f` is this ceiling's part of the full address when it was refused (R / max, at least 1/12): a desk that
 * held a sixth of the address climbs at a sixth of the pace, so that desks that cannot see each other climb
 * together as one office would, not each at the office's pace (six desks each adding 1 a minute every 30 s
 * were refused again two minutes after the first crowding, in the simulation's blocked-6).
 *
 * A desk alone may also name a `floor` for the cut: a desk that had sent little when the address was found
 * full (it started late) is not cut to almost nothing, which would starve it for minutes while the others,
 * who cannot see it, keep their larger parts. Each further cut within `quietMs` halves that floor, so desks
 * that still crowd the address converge anyway.
 *
 * Pure and clocked from outside: `now` is passed to each call.
 */
export interface AimdOptions {
  /** The ceiling when nothing has been refused: a few under the service's 120. */
  max: number;
  /** Never below this: a probe's worth. */
  min: number;
  /** Multiplicative decrease on a 429 (of the smaller of the ceiling and what was really sent). */
  beta: number;
  /** Additive increase per clean period, in requests a minute, when no 429 is remembered. */
  alpha: number;
  periodMs: number;
  /** 429s closer than this to the last decrease belong to the same crowding and lower nothing more. */
  decreaseGapMs: number;
  /** No increase for this long after a cut. */
  holdMs: number;
  /** No increase between beta x R and R for this long after a cut. */
  quietMs: number;
  /** The refused level is forgotten this long after the last cut. */
  forgetMs: number;
}

/** Measured in the simulation (test/office/sim) and bench:office: see docs/office.md "429s". */
export const OFFICE_AIMD: Omit<AimdOptions, 'max'> = {
  min: 6,
  beta: 0.9,
  alpha: 1,
  periodMs: 5_000,
  decreaseGapMs: 5_000,
  holdMs: 60_000,
  quietMs: 300_000,
  forgetMs: 600_000,
};

export interface Aimd {
  /** Requests a minute allowed now (a whole number). */
  readonly value: number;
  /** The refused level R (requests a minute), or null when no 429 is remembered. */
  readonly refusedAt: number | null;
  /**
   * A 429 answered at `now`: `used` is what this ceiling's requests were in the last minute (the cut goes
   * under it), `floor` the least a desk alone is cut to (see above). True when it lowered the ceiling.
   */
  limited(now: number, o?: { used?: number; floor?: number }): boolean;
  /** A request answered without 429 at `now`. */
  answered(now: number): void;
  /** Lets time pass: applies the increases of the clean periods that ended by `now`. */
  tick(now: number): void;
  /** A new maximum (the user's setting): it caps the value used, and what was learned stays. */
  setMax(max: number): void;
  /**
   * Starts from this value (a new holder takes over the office's last known ceiling). A value under the
   * maximum was a cut's: it is taken as one made a minute ago (the next holder does not climb back at once
   * to where the address was refused).
   */
  reset(value: number, now: number): void;
  /** Back to the maximum with no 429 remembered (what was learned measured a situation that is over). */
  forget(now: number): void;
}

export function createAimd(opts: AimdOptions, start: number): Aimd {
  let max = opts.max;
  let value = opts.max;
  let lastDecrease = Number.NEGATIVE_INFINITY;
  let periodStart = start;
  let answeredInPeriod = false;
  let limitedInPeriod = false;
  /** Where the last 429 came (R), and this ceiling's part of the address then. */
  let refusedAt: number | null = null;
  let part = 1;
  /** Cuts in a row, each within `quietMs` of the one before: each halves a desk alone's floor. */
  let streak = 0;

  // `value` is what was learned; the user's maximum only caps what is used, so a maximum lowered and raised
  // again (Settings) restores the learned ceiling at once. The floor is the smaller of `min` and the maximum
  // (a setting of 1 a minute is honoured).
  const floor = () => Math.min(opts.min, max);
  const clamp = (v: number) => Math.min(max, Math.max(floor(), v));

  function increase(periodEnd: number): number {
    const since = periodEnd - lastDecrease;
    if (refusedAt !== null && since >= opts.forgetMs) refusedAt = null;
    if (refusedAt === null) return opts.alpha;
    if (since < opts.holdMs) return 0;
    const slow = (opts.alpha / 6) * part;
    if (value < opts.beta * refusedAt || value >= refusedAt) return slow;
    return since < opts.quietMs ? 0 : slow;
  }

  function tick(now: number): void {
    while (now - periodStart >= opts.periodMs) {
      if (answeredInPeriod && !limitedInPeriod && value < max)
        value = clamp(value + increase(periodStart + opts.periodMs));
      periodStart += opts.periodMs;
      answeredInPeriod = false;
      limitedInPeriod = false;
    }
  }

  return {
    get value() {
      return Math.floor(Math.max(floor(), Math.min(value, max)));
    },
    get refusedAt() {
      return refusedAt;
    },
    limited(now, o = {}) {
      tick(now);
      limitedInPeriod = true;
      if (now - lastDecrease < opts.decreaseGapMs) return false;
      streak = now - lastDecrease < opts.quietMs ? streak + 1 : 1;
      lastDecrease = now;
      const current = Math.min(value, max);
      const r = Math.max(0, o.used !== undefined ? Math.min(current, o.used) : current);
      refusedAt = r;
      part = Math.min(1, Math.max(1 / 12, r / max));
      let next = r * opts.beta;
      if (o.floor !== undefined) next = Math.max(next, Math.min(current, o.floor / 2 ** (streak - 1)));
      value = clamp(next);
      return true;
    },
    answered(now) {
      tick(now);
      answeredInPeriod = true;
    },
    tick,
    setMax(m) {
      max = m;
    },
    reset(v, now) {
      value = clamp(v);
      if (v < max) {
        refusedAt = v / opts.beta;
        part = Math.min(1, Math.max(1 / 12, refusedAt / max));
        if (lastDecrease === Number.NEGATIVE_INFINITY) lastDecrease = now - opts.holdMs;
      }
      periodStart = now;
      answeredInPeriod = false;
      limitedInPeriod = false;
    },
    forget(now) {
      value = max;
      refusedAt = null;
      part = 1;
      streak = 0;
      lastDecrease = Number.NEGATIVE_INFINITY;
      periodStart = now;
      answeredInPeriod = false;
      limitedInPeriod = false;
    },
  };
}

/**
 * When to send the one probe after a 429 without Retry-After: 2 s, 4 s, 8 s ... up to 60 s after each
 * refused probe, plus up to a quarter more at random so that desks and offices do not probe in step.
 */
export function probeDelayMs(attempt: number, random: () => number = Math.random): number {
  const base = exponentialMs(attempt, OFFICE_PROBE_BACKOFF);
  return Math.round(base * (1 + 0.25 * random()));
}
