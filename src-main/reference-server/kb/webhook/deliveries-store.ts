import type { Db } from '../../../shared-node/sqlite';
import { statements } from '../../../shared-node/statements';

export type DeliveryState = 'PENDING' | 'DELIVERED' | 'FAILED' | 'REFUSED';

export interface Delivery {
  id: number;
  botId: number;
  conversationId: number;
  event: string;
  body: Buffer;
  state: DeliveryState;
  nextAttemptAt: number | null;
  attemptCount: number;
}

export interface AttemptRecord {
  at: number;
  status: number | null;
  error: string | null;
  durationMs: number;
}

/** The admin view of `GET /__admin/v1/deliveries` (reference-server.md); times in ISO 8601 UTC like `GET /clock`. */
export interface DeliveryView {
  id: number;
  bot_id: number;
  conversation_id: number;
  event: string;
  state: DeliveryState;
  attempts: { at: string; status: number | null; error: string | null; duration_ms: number }[];
  next_attempt_at: string | null;
}

interface DeliveryRow {
  id: number;
  bot_id: number;
  conversation_id: number;
  event: string;
  body: Buffer;
  state: DeliveryState;
  next_attempt_at_ms: number | null;
  attempt_count: number;
}

interface AttemptRow {
  delivery_id: number;
  at_ms: number;
  status: number | null;
  error: string | null;
  duration_ms: number;
}

const iso = (ms: number) => new Date(ms).toISOString();

/** Conversations, deliveries and their attempts: the durable part of the webhook. */
export function deliveryStore(db: Db) {
  const prep = statements(db);
  const insertConversation = prep(
    'INSERT INTO kb_conversations (bot_id, visitor_ref, started_at_ms) VALUES (?, ?, ?)',
  );
  const insertDelivery = prep(
    `INSERT INTO kb_deliveries (bot_id, conversation_id, event, body, state, next_attempt_at_ms, created_at_ms)
     VALUES (?, ?, ?, ?, ?, ?, ?)`,
  );
  const load = prep(
    `SELECT d.id, d.bot_id, d.conversation_id, d.event, d.body, d.state, d.next_attempt_at_ms,
            (SELECT COUNT(*) FROM kb_delivery_attempts a WHERE a.delivery_id = d.id) AS attempt_count
     FROM kb_deliveries d WHERE d.id = ?`,
  );
  const setNext = prep('UPDATE kb_deliveries SET next_attempt_at_ms = ? WHERE id = ?');
  const setState = prep('UPDATE kb_deliveries SET state = ?, next_attempt_at_ms = ? WHERE id = ?');
  const insertAttempt = prep(
    `INSERT INTO kb_delivery_attempts (delivery_id, number, at_ms, status, error, duration_ms)
     VALUES (?, (SELECT COUNT(*) + 1 FROM kb_delivery_attempts WHERE delivery_id = ?), ?, ?, ?, ?)`,
  );
  const due = prep(
    `SELECT id FROM kb_deliveries WHERE state = 'PENDING' AND next_attempt_at_ms <= ? ORDER BY next_attempt_at_ms, id`,
  );
  const minDue = prep(`SELECT MIN(next_attempt_at_ms) AS at FROM kb_deliveries WHERE state = 'PENDING'`);
  const listAll = prep(
    'SELECT id, bot_id, conversation_id, event, state, next_attempt_at_ms FROM kb_deliveries WHERE (? IS NULL OR bot_id = ?) ORDER BY id',
  );
  const attemptsOf = prep(
    `SELECT a.delivery_id, a.at_ms, a.status, a.error, a.duration_ms FROM kb_delivery_attempts a
     JOIN kb_deliveries d ON d.id = a.delivery_id WHERE (? IS NULL OR d.bot_id = ?) ORDER BY a.delivery_id, a.number`,
  );

  const recordAttempt = (
    id: number,
    attempt: AttemptRecord,
    state: DeliveryState,
    nextAttemptAt: number | null,
  ) => {
    insertAttempt.run(id, id, attempt.at, attempt.status, attempt.error, attempt.durationMs);
    setState.run(state, nextAttemptAt, id);
  };

  return {
    newConversation(botId: number, visitorRef: string, startedAtMs: number): number {
      return Number(insertConversation.run(botId, visitorRef, startedAtMs).lastInsertRowid);
    },
    newDelivery(fields: {
      botId: number;
      conversationId: number;
      event: string;
      body: Buffer;
      nextAttemptAt: number;
      createdAt: number;
    }): number {
      return Number(
        insertDelivery.run(
          fields.botId,
          fields.conversationId,
          fields.event,
          fields.body,
          'PENDING',
          fields.nextAttemptAt,
          fields.createdAt,
        ).lastInsertRowid,
      );
    },
    load(id: number): Delivery | null {
      const r = load.get(id) as DeliveryRow | undefined;
      if (!r) return null;
      return {
        id: r.id,
        botId: r.bot_id,
        conversationId: r.conversation_id,
        event: r.event,
        body: r.body,
        state: r.state,
        nextAttemptAt: r.next_attempt_at_ms,
        attemptCount: r.attempt_count,
      };
    },
    setNextAttempt(id: number, at: number | null): void {
      setNext.run(at, id);
    },
    /** The attempt and the state it leads to, in one transaction. */
    recordAttempt: db.transaction(recordAttempt),
    dueIds: (at: number): number[] => (due.all(at) as { id: number }[]).map((r) => r.id),
    nextDueAt: (): number | null => (minDue.get() as { at: number | null }).at,
    view(botId: number | null): DeliveryView[] {
      const attempts = new Map<number, DeliveryView['attempts']>();
      for (const a of attemptsOf.all(botId, botId) as AttemptRow[]) {
        const list = attempts.get(a.delivery_id) ?? [];
        list.push({ at: iso(a.at_ms), status: a.status, error: a.error, duration_ms: a.duration_ms });
        attempts.set(a.delivery_id, list);
      }
      return (listAll.all(botId, botId) as Omit<DeliveryRow, 'body' | 'attempt_count'>[]).map((d) => ({
        id: d.id,
        bot_id: d.bot_id,
        conversation_id: d.conversation_id,
        event: d.event,
        state: d.state,
        attempts: attempts.get(d.id) ?? [],
        next_attempt_at:
          d.state === 'PENDING' && d.next_attempt_at_ms !== null ? iso(d.next_attempt_at_ms) : null,
      }));
    },
  };
}

export type DeliveryStore = ReturnType<typeof deliveryStore>;
