import type { RelayStore } from './relay-store';

/** The encoded answers kept at once (a cursor and a limit each); the oldest goes first. */
const KEPT = 64;

export interface FeedAnswer {
  text: string;
  empty: boolean;
}

/**
 * The feed's answers, encoded, kept while the store's version holds (issue 32). Every desk has the
 * read token, so anyone with it can ask from cursor 0 again and again: each ask read a full page of
 * deliveries from the database and encoded it again, a read load that slowed the deliveries beside
 * it to about 1 a second. An answer depends only on the cursor, the limit and what is stored, and
 * what is stored only grows (a new sequence number) or is swept: so the same question between two
 * changes is answered with the same bytes, read once.
 */
export function feedAnswers(store: Pick<RelayStore, 'feed' | 'version'>) {
  const kept = new Map<string, FeedAnswer>();
  let version = '';
  let reads = 0;
  return {
    answer(after: number, limit: number): FeedAnswer {
      const now = store.version();
      if (now !== version) {
        kept.clear();
        version = now;
      }
      const key = `${after}:${limit}`;
      const found = kept.get(key);
      if (found) return found;
      reads++;
      const feed = store.feed(after, limit);
      const answer = {
        text: JSON.stringify(feed),
        empty: feed.deliveries.length === 0 && feed.marks.length === 0 && feed.expired === 0,
      };
      if (kept.size >= KEPT) kept.delete(kept.keys().next().value as string);
      kept.set(key, answer);
      return answer;
    },
    /** Reads of the database made so far (the rest were kept answers). */
    reads: () => reads,
  };
}
