/** A round step (1, 2 or 5 times a power of ten) near `raw`, at least `min`. */
function niceStep(raw: number, min: number): number {
  if (raw <= min) return min;
  const p = 10 ** Math.floor(Math.log10(raw));
  const f = raw / p;
  return (f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10) * p;
}

/**
 * Axis ticks from 0 to a round top above `max`, about `count` steps. `unit` scales the steps (a
 * binary unit for bytes, one paisa for rent) so the labels read as round numbers in that unit.
 * At least two steps: a series of equal values sits mid-chart, not pinned to the top edge.
 */
export function ticks(max: number, opts: { count?: number; unit?: number; minStep?: number } = {}): number[] {
  const unit = opts.unit ?? 1;
  const count = opts.count ?? 4;
  const step = niceStep(Math.max(max, 0) / unit / count, opts.minStep ?? 0) || 1;
  const steps = Math.max(2, Math.ceil(max / unit / step));
  return Array.from({ length: steps + 1 }, (_, i) => i * step * unit);
}

/** The binary unit (1, 1024, 1024^2...) that keeps `max` at 1 or more: byte ticks read 0, 20, 40 MiB. */
export function byteUnit(max: number): number {
  let u = 1;
  while (max / (u * 1024) >= 1 && u < 1024 ** 4) u *= 1024;
  return u;
}
