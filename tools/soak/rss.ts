/** RSS samples of a run and the comparison of its first and last window. */
export interface Sample {
  atMs: number;
  mb: number;
}

export interface WindowCheck {
  /** The window's length, in words ("10 min", "a fifth: 24 s"). */
  window: string;
  firstMb: number;
  lastMb: number;
  ratio: number;
}

/**
 * The highest sample of the last window against the highest of the first: ten minutes each, or a
 * fifth of the run for runs under 20 minutes (where ten-minute windows would overlap). The highest,
 * because the app is restarted every few minutes and each start climbs from low again.
 */
export function compareWindows(samples: readonly Sample[], runMs: number): WindowCheck | null {
  const windowMs = runMs >= 20 * 60_000 ? 10 * 60_000 : runMs / 5;
  const first = samples.filter((s) => s.atMs <= windowMs).map((s) => s.mb);
  const last = samples.filter((s) => s.atMs >= runMs - windowMs).map((s) => s.mb);
  if (!first.length || !last.length) return null;
  const firstMb = Math.max(...first);
  const lastMb = Math.max(...last);
  const window =
    windowMs === 10 * 60_000 ? '10 min' : `a fifth of the run (${Math.round(windowMs / 1000)} s)`;
  return { window, firstMb, lastMb, ratio: lastMb / firstMb };
}
