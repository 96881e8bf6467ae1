import type { RelayDelivery, RelayFeed, RelayMark, RelayMarkInput } from '../../src-shared/api/relay';
import type { Db } from '../shared-node/sqlite';
import { statements } from '../shared-node/statements';

/** A delivery as taken from the service: exact bytes and the headers a desk needs to verify it. */
export interface IncomingDelivery {
  /** `bot.id` and `conversation.id` read from the body (unverified: the dedup key, not a trust). */
  botId: number;
  conversationId: number;
  event: string | null;
  signature: string;
  contentType: string | null;
  body: Buffer;
}

interface DeliveryRow {
  seq: number;
  received_at: number;
  event: string | null;
  signature: string;
  body: Buffer;
}
interface MarkRow {
  seq: number;
  bot_id: number;
  conversation_id: number;
  handled: number;
  by: string;
  at: string;
  sig: string;
}

export function createRelayStore(db: Db, now: () => number = Date.now) {
  const prep = statements(db);
  const nextSeq = () =>
    (prep('UPDATE relay_seq SET last = last + 1 WHERE id = 1 RETURNING last').get() as { last: number }).last;
  const existing = prep(
    'SELECT seq FROM deliveries WHERE bot_id = ? AND conversation_id = ? AND signature = ? AND body = ?',
  );
  const insertDelivery = prep(
    `INSERT INTO deliveries (seq, received_at, bot_id, conversation_id, event, signature, content_type, body)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const existingMark = prep(
    'SELECT seq FROM marks WHERE bot_id = ? AND conversation_id = ? AND at = ? AND by = ? AND handled = ? AND sig = ?',
  );
  const insertMark = prep(
    `INSERT INTO marks (seq, received_at, bot_id, conversation_id, handled, by, at, sig)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
  );

  /**
   * Dedup on the exact bytes and signature: the service's retries carry both unchanged, so they are
   * one row. Any copy that differs, in its signature or in one byte, is kept beside the others: the
   * relay cannot tell the genuine one (it holds no secret), each desk can, and rejects the rest. (On
   * bot, conversation and signature alone, an altered copy posted first hid the real lead.)
   */
  const storeDeliveries = db.transaction((items: IncomingDelivery[]) =>
    items.map((d) => {
      const found = existing.get(d.botId, d.conversationId, d.signature, d.body) as
        | { seq: number }
        | undefined;
      if (found) return { seq: found.seq, duplicate: true };
      const seq = nextSeq();
      insertDelivery.run(seq, now(), d.botId, d.conversationId, d.event, d.signature, d.contentType, d.body);
      return { seq, duplicate: false };
    }),
  );

  const addMarks = db.transaction((items: RelayMarkInput[]) =>
    items.map((m) => {
      const args = [m.botId, m.conversationId, m.at, m.by, m.handled ? 1 : 0, m.sig] as const;
      const found = existingMark.get(...args) as { seq: number } | undefined;
      if (found) return { seq: found.seq, duplicate: true };
      const seq = nextSeq();
      insertMark.run(seq, now(), m.botId, m.conversationId, m.handled ? 1 : 0, m.by, m.at, m.sig);
      return { seq, duplicate: false };
    }),
  );

  let sweeps = 0;
  return {
    /**
     * Changes whenever an answer of `feed` may: a delivery or a mark taken (the sequence moves), or a
     * sweep that deleted something. Equal versions, equal answers for the same cursor and limit.
     */
    version: () =>
      `${(prep('SELECT last FROM relay_seq WHERE id = 1').get() as { last: number }).last}:${sweeps}`,
    storeDeliveries: (items: IncomingDelivery[]) => storeDeliveries(items),
    addMarks: (items: RelayMarkInput[]) => addMarks(items),
    latestSeq: () => (prep('SELECT last FROM relay_seq WHERE id = 1').get() as { last: number }).last,

    /** What follows `after`, at most `limit` items, in sequence order (see RelayFeed). */
    feed(after: number, limit: number): RelayFeed {
      const ds = prep(
        'SELECT seq, received_at, event, signature, body FROM deliveries WHERE seq > ? ORDER BY seq LIMIT ?',
      ).all(after, limit) as DeliveryRow[];
      const ms = prep(
        'SELECT seq, bot_id, conversation_id, handled, by, at, sig FROM marks WHERE seq > ? ORDER BY seq LIMIT ?',
      ).all(after, limit) as MarkRow[];
      // A full list may stop before the other's last row: answer only up to the smaller of the two ends.
      const ends = [ds.length === limit ? ds.at(-1)!.seq : null, ms.length === limit ? ms.at(-1)!.seq : null];
      const bound = Math.min(...ends.filter((e): e is number => e !== null), Number.MAX_SAFE_INTEGER);
      const deliveries: RelayDelivery[] = ds
        .filter((d) => d.seq <= bound)
        .map((d) => ({
          seq: d.seq,
          receivedAt: new Date(d.received_at).toISOString(),
          event: d.event,
          signature: d.signature,
          body: d.body.toString('base64'),
        }));
      const marks: RelayMark[] = ms
        .filter((m) => m.seq <= bound)
        .map((m) => ({
          seq: m.seq,
          botId: m.bot_id,
          conversationId: m.conversation_id,
          handled: m.handled === 1,
          by: m.by,
          at: m.at,
          sig: m.sig,
        }));
      let next = Math.max(after, deliveries.at(-1)?.seq ?? 0, marks.at(-1)?.seq ?? 0);
      // Deliveries after the cursor that retention deleted before this desk read them: counted once,
      // the cursor moved past them (up to where this answer ends, when it was cut at `limit`).
      const upTo = bound === Number.MAX_SAFE_INTEGER ? bound : next;
      const gone = prep('SELECT COUNT(*) AS n, MAX(seq) AS last FROM expired WHERE seq > ? AND seq <= ?').get(
        after,
        upTo,
      ) as { n: number; last: number | null };
      next = Math.max(next, gone.last ?? 0);
      const waiting = (prep('SELECT COUNT(*) AS n FROM deliveries WHERE seq > ?').get(next) as { n: number })
        .n;
      return { ok: true, deliveries, marks, next, waiting, expired: gone.n };
    },

    /** Retention: deliveries and marks taken before `cutoff` (ms) go. */
    sweep(cutoff: number): { deliveries: number; marks: number } {
      sweeps++;
      return db.transaction(() => ({
        deliveries: (() => {
          prep('INSERT OR IGNORE INTO expired (seq) SELECT seq FROM deliveries WHERE received_at < ?').run(
            cutoff,
          );
          return prep('DELETE FROM deliveries WHERE received_at < ?').run(cutoff).changes;
        })(),
        marks: prep('DELETE FROM marks WHERE received_at < ?').run(cutoff).changes,
      }))();
    },

    status(): { deliveries: number; oldestAt: string | null } {
      const r = prep('SELECT COUNT(*) AS n, MIN(received_at) AS oldest FROM deliveries').get() as {
        n: number;
        oldest: number | null;
      };
      return { deliveries: r.n, oldestAt: r.oldest === null ? null : new Date(r.oldest).toISOString() };
    },
  };
}

export type RelayStore = ReturnType<typeof createRelayStore>;
