import type { Demand } from './protocol';

/**
 * How the holder shares the office's window: max-min fair by demand. A desk that wants little gets all it
 * wants; the busy ones split the rest evenly; an idle desk's share goes to the busy ones. Lanes weigh first:
 * a place goes to the highest class anyone wants (a fresh drop or what a person asked for, then the engine's
 * backlog, then background walks), and within a class to the desk that holds the fewest places of the
 * current window. Granting one place at a time that way is max-min fairness over the window: it needs no
 * estimate of anyone's rate, and a desk that catches up simply stops being the one that is furthest behind.
 */
export const CLASSES = ['now', 'sync', 'bg'] as const;
export type DemandClass = (typeof CLASSES)[number];

export interface Contender {
  id: string;
  /** Places still wanted, by class. */
  want: Demand;
  /** This desk's requests in the current window (places granted within the last 60 s, or its word if more). */
  inWindow: number;
  /** When its last place was granted: between equals, the one that waited longest goes first. */
  lastAt?: number;
}

const lastOf = (c: Contender) => c.lastAt ?? Number.NEGATIVE_INFINITY;

/** The desk the next place goes to, and for which class; null when nobody wants one (or only `bg` while it may not). */
export function pickNext(
  contenders: readonly Contender[],
  bgAllowed = true,
): { id: string; cls: DemandClass } | null {
  for (const cls of CLASSES) {
    if (cls === 'bg' && !bgAllowed) continue;
    let best: Contender | null = null;
    for (const c of contenders) {
      if (c.want[cls] <= 0) continue;
      // Ties by the longest wait, then the id: by the id alone, the desks of the highest ids waited longest
      // every time, past their equal share, and sent on their own word.
      if (
        !best ||
        c.inWindow < best.inWindow ||
        (c.inWindow === best.inWindow &&
          (lastOf(c) < lastOf(best) || (lastOf(c) === lastOf(best) && c.id < best.id)))
      )
        best = c;
    }
    if (best) return { id: best.id, cls };
  }
  return null;
}

/**
 * Each desk's share of `capacity` requests a minute by water-filling (max-min fairness): `demand` is what a
 * desk can use a minute (Infinity for a desk with a backlog). What the ETA and the Folders header show.
 */
export function waterFill(
  capacity: number,
  desks: readonly { id: string; demand: number }[],
): Map<string, number> {
  const shares = new Map<string, number>();
  let left = Math.max(0, capacity);
  const open = [...desks].sort((a, b) => a.demand - b.demand);
  while (open.length > 0) {
    const even = left / open.length;
    const d = open[0]!;
    if (d.demand <= even) {
      shares.set(d.id, d.demand);
      left -= d.demand;
      open.shift();
      continue;
    }
    for (const o of open) shares.set(o.id, even);
    break;
  }
  return shares;
}
