/**
 * A fake clock for the office simulation: it replaces the process's timers, `Date.now` and `Math.random`
 * (seeded), so that the real office code (desk.ts, holder.ts, office-budget.ts, the pacer) runs minutes of
 * simulated time in a second, the same way on a quiet machine and a loaded one. Timers fire in order of due
 * time (then of creation); after each, every microtask it started runs before the next timer (a real
 * setImmediate drains them), as Node's event loop would.
 *
 * Only for a process of its own (test/office/sim/main.ts): it patches globals and never gives them back.
 * vitest's fake timers yield a real macrotask per timer (about a millisecond each), too slow for the
 * hundred thousand timers of a twelve-desk run.
 */
interface Timer {
  id: number;
  at: number;
  seq: number;
  fn: () => void;
  every: number | null;
  cancelled: boolean;
}

export interface FakeClock {
  readonly now: number;
  /** Runs timers until `until()` holds, or else up to `limitMs` (absolute time, where it then stands): false. */
  runUntil(until: () => boolean, limitMs: number): Promise<boolean>;
  /** Math.random from this seed on (each run of a row starts from its own). */
  reseed(seed: number): void;
}

/** mulberry32: a small seeded generator, enough for jitter and latencies. */
export function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function installFakeClock(start: number, seed: number): FakeClock {
  const realImmediate = setImmediate;
  let now = start;
  let seq = 0;
  const heap: Timer[] = [];
  const byId = new Map<number, Timer>();

  const less = (a: Timer, b: Timer) => a.at < b.at || (a.at === b.at && a.seq < b.seq);
  function push(t: Timer): void {
    heap.push(t);
    let i = heap.length - 1;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!less(heap[i]!, heap[p]!)) break;
      [heap[i], heap[p]] = [heap[p]!, heap[i]!];
      i = p;
    }
  }
  function pop(): Timer | undefined {
    const top = heap[0];
    const last = heap.pop();
    if (heap.length > 0 && last) {
      heap[0] = last;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < heap.length && less(heap[l]!, heap[m]!)) m = l;
        if (r < heap.length && less(heap[r]!, heap[m]!)) m = r;
        if (m === i) break;
        [heap[i], heap[m]] = [heap[m]!, heap[i]!];
        i = m;
      }
    }
    return top;
  }

  function handle(t: Timer) {
    return {
      ref: () => handle(t),
      unref: () => handle(t),
      hasRef: () => true,
      refresh: () => {
        add(t.fn, t.every ?? Math.max(1, t.at - now), t.every, t.id);
        return handle(t);
      },
      [Symbol.toPrimitive]: () => t.id,
    };
  }

  let nextId = 1;
  function add(fn: () => void, ms: number, every: number | null, reuse?: number) {
    const id = reuse ?? nextId++;
    const old = byId.get(id);
    if (old) old.cancelled = true;
    const delay = Math.max(1, Number.isFinite(ms) ? Math.floor(ms) : 1);
    const t: Timer = {
      id,
      at: now + delay,
      seq: seq++,
      fn,
      every: every === null ? null : delay,
      cancelled: false,
    };
    byId.set(id, t);
    push(t);
    return handle(t);
  }
  function cancel(h: unknown): void {
    if (h === undefined || h === null) return;
    const id = typeof h === 'number' ? h : Number(h as never);
    const t = byId.get(id);
    if (t) {
      t.cancelled = true;
      byId.delete(id);
    }
  }

  const g = globalThis as unknown as Record<string, unknown>;
  g.setTimeout = (fn: (...a: unknown[]) => void, ms?: number, ...args: unknown[]) =>
    add(() => fn(...args), ms ?? 0, null);
  g.setInterval = (fn: (...a: unknown[]) => void, ms?: number, ...args: unknown[]) =>
    add(() => fn(...args), ms ?? 0, ms ?? 0);
  g.clearTimeout = cancel;
  g.clearInterval = cancel;
  Date.now = () => now;
  // The desks' monotonic clock (service/clock.ts monotonicNow) moves with the simulated one.
  Object.defineProperty(performance, 'now', { value: () => now, configurable: true, writable: true });
  Math.random = seeded(seed);

  const drain = () => new Promise<void>((r) => realImmediate(r));

  return {
    reseed(seed) {
      Math.random = seeded(seed);
    },
    get now() {
      return now;
    },
    async runUntil(until, limitMs) {
      await drain();
      while (!until()) {
        const t = pop();
        if (!t || t.at > limitMs) {
          if (t) push(t);
          now = Math.max(now, limitMs);
          return false;
        }
        if (t.cancelled) continue;
        now = Math.max(now, t.at);
        if (t.every !== null) {
          t.at = now + t.every;
          t.seq = seq++;
          push(t);
        } else byId.delete(t.id);
        t.fn();
        await drain();
      }
      return true;
    },
  };
}
