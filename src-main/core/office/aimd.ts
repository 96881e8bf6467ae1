/**
 * The office's ceiling, additive increase and multiplicative decrease (AIMD, as TCP shares a link): any 429
 * lowers it by `beta` (at most once per `decreaseGapMs`, since one crowded moment answers several requests
 * with 429), and each `periodMs` that had answered requests and no 429 raises it by `alpha`, never above
 * `max`. Requests nobody sees (a browser, a script, a desk of an older version at the same address) spend
 * the allowance too; this is how the office finds out how much of it is left.
 *
 * The increase remembers where the last 429 came: none for a minute after the decrease (the service's window
 * still holds the higher rate's requests), then, below that ceiling and for three minutes after the
 * decrease, `alpha` / 6 a period (1 a minute every 30 s); then `alpha` again. The rate that was
 * refused is near, and each return to it costs a few refused requests. Measured on bench:office hidden-6
 * (six desks beside a hidden consumer at 20 a minute): a plain +1 every 5 s had 8 of the desks' requests
 * refused in about 210 s of sending; going back fast to 95% of the refused ceiling, 9 in 238 s (each first
 * return overshot, since the first 429 came at 115 and the room was 100).
 *
 * Pure and clocked from outside: `now` is passed to each call.
 */
export interface AimdOptions {
  /** The ceiling when nothing has been refused: a few under the service's 120. */
  max: number;
  /** Never below this: a probe's worth. */
  min: number;
  /** Multiplicative decrease on a 429. */
  beta: number;
  /** Additive increase per clean period, in requests a minute. */
  alpha: number;
  periodMs: number;
  /** 429s closer than this to the last decrease belong to the same crowding and lower nothing more. */
  decreaseGapMs: number;
}

/** Measured (docs/office.md): beta 0.85 keeps a hidden consumer's share and ours near the limit. */
export const OFFICE_AIMD: Omit<AimdOptions, 'max'> = {
  min: 6,
  beta: 0.85,
  alpha: 1,
  periodMs: 5_000,
  decreaseGapMs: 5_000,
};

export interface Aimd {
  /** Requests a minute allowed now (a whole number). */
  readonly value: number;
  /** A 429 answered at `now`; `cap` (when given) is a second upper bound, e.g. what was really used. */
  limited(now: number, cap?: number): boolean;
  /** A request answered without 429 at `now`. */
  answered(now: number): void;
  /** Lets time pass: applies the increases of the clean periods that ended by `now`. */
  tick(now: number): void;
  /** A new maximum (the user's setting): it caps the value used, and what was learned stays. */
  setMax(max: number): void;
  /** Starts from this value (a new holder takes over the office's last known ceiling). */
  reset(value: number, now: number): void;
}

export function createAimd(opts: AimdOptions, start: number): Aimd {
  let max = opts.max;
  let value = opts.max;
  let lastDecrease = Number.NEGATIVE_INFINITY;
  let periodStart = start;
  let answeredInPeriod = false;
  let limitedInPeriod = false;

  // `value` is what was learned; the user's maximum only caps what is used, so a maximum lowered and raised
  // again (Settings) restores the learned ceiling at once. The floor is the smaller of `min` and the maximum
  // (a setting of 1 a minute is honoured).
  const floor = () => Math.min(opts.min, max);
  const clamp = (v: number) => Math.min(max, Math.max(floor(), v));

  /** Where the last 429 came: the ceiling then. */
  let refusedAt: number | null = null;
  const SLOW_MS = 180_000;
  const HOLD_MS = 60_000;

  function increase(periodEnd: number): number {
    if (refusedAt === null) return opts.alpha;
    // A window after a decrease, the service still counts the requests of the higher rate: hold.
    if (periodEnd - lastDecrease < HOLD_MS) return 0;
    return value < refusedAt || periodEnd - lastDecrease < SLOW_MS ? opts.alpha / 6 : opts.alpha;
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
    limited(now, cap) {
      tick(now);
      limitedInPeriod = true;
      if (now - lastDecrease < opts.decreaseGapMs) return false;
      lastDecrease = now;
      const used = Math.min(value, max);
      refusedAt = used;
      const cut = used * opts.beta;
      value = clamp(cap !== undefined ? Math.min(cut, cap * opts.beta) : cut);
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
  const base = Math.min(60_000, 2_000 * 2 ** Math.max(0, attempt - 1));
  return Math.round(base * (1 + 0.25 * random()));
}
