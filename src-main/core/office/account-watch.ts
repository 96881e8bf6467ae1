import type { IndexWatch, WatchAnswer } from '../remote-index/shared-watch';
import { monotonicNow } from '../service/clock';
import type { Desk } from './desk';
import { type WatchWord, watchHash } from './protocol';

/**
 * The desk's side of the shared watch (docs/remote-index.md, "An office shares the watch"): what this
 * desk says of the accounts it keeps, and what its peers say, per account hash. The account is said as
 * a hash of (service origin, client id), the newest id as a hash too: peers compare, never read.
 */
export function createWatchBoard(desk: () => Desk | null, now: () => number = monotonicNow) {
  const mine = new Map<string, WatchAnswer & { readAt: number }>();
  const listeners = new Map<string, Set<() => void>>();
  return {
    /** What the desk's heartbeat adds (desk.watching). */
    words(): WatchWord[] {
      const t = now();
      const out: WatchWord[] = [];
      for (const [acct, a] of mine) {
        const ageMs = Math.max(0, Math.round(t - a.readAt));
        if (ageMs <= 600_000) out.push({ acct, total: a.total, newest: a.newest, ageMs });
      }
      return out;
    },
    /** A peer said a newer answer for `acct` (desk.onWatch). */
    heard(acct: string): void {
      for (const l of listeners.get(acct) ?? []) l();
    },
    /** The watch of one account, for its index keeper. */
    for(serviceOrigin: string, clientId: string): IndexWatch {
      const acct = watchHash(serviceOrigin, clientId);
      return {
        get self() {
          return desk()?.id ?? '';
        },
        say(answer) {
          if (!answer) mine.delete(acct);
          else
            mine.set(acct, {
              total: answer.total,
              newest: answer.newest,
              readAt: answer.readAt,
            });
          desk()?.sayWatch();
        },
        peers() {
          const d = desk();
          return d && d.role().kind !== 'alone' ? d.watchOf(acct) : [];
        },
        onWord(fn) {
          const set = listeners.get(acct) ?? new Set();
          set.add(fn);
          listeners.set(acct, set);
          return () => set.delete(fn);
        },
        hash(newest) {
          return newest === null ? null : watchHash(acct, newest);
        },
        now,
      };
    },
  };
}
