import { foldForSearch } from '../../../src-shared/domain/search-fold';
import type { Db } from '../../shared-node/sqlite';
import { statements } from '../../shared-node/statements';
import { nextChangeAt } from './handled-clock';
import type { ParsedLead } from './payload';

export interface StoredLead extends ParsedLead {
  id: number;
  botId: number;
  receivedAt: string;
  handledAt: string | null;
  /** The desk (person) that marked it handled. */
  handledBy: string | null;
  /** When and by which desk the handled state last changed: the latest change wins. */
  handledChangedAt: string | null;
  handledChangedBy: string | null;
  /** This desk's change has not reached the relay yet. */
  markUnsent: boolean;
}

/** A handled state from a desk (this one or another, through a relay). */
export interface HandledMark {
  handled: boolean;
  by: string;
  at: string;
}

/**
 * Last writer wins: the later change; between two at the same instant, the greater desk name, then
 * "handled" over "open". A total order, so every desk ends in the same state whatever order the
 * marks arrive in.
 */
export const markIsNewer = (
  m: HandledMark,
  l: Pick<StoredLead, 'handledChangedAt' | 'handledChangedBy' | 'handledAt'>,
) => {
  if (l.handledChangedAt === null || m.at > l.handledChangedAt) return true;
  if (m.at < l.handledChangedAt) return false;
  const by = l.handledChangedBy ?? '';
  return m.by > by || (m.by === by && m.handled && l.handledAt === null);
};

/** `wantsAPerson` (src-shared/contract/leads.ts) in SQL: what the badge "Wants a person" marks. */
const WANTS_A_PERSON_SQL = "(event = 'HANDOFF-REQUESTED' OR asked_for_a_person = 1)";

interface LeadRow {
  id: number;
  bot_local_id: number;
  remote_bot_id: number;
  bot_name: string;
  business_name: string;
  conversation_id: number;
  event: string;
  name: string;
  email: string;
  phone: string;
  note: string | null;
  asked_for_a_person: number;
  visitor_ref: string;
  started_at: string;
  received_at: string;
  handled_at: string | null;
  handled_by: string | null;
  handled_changed_at: string | null;
  handled_changed_by: string | null;
  mark_unsent: number;
}

const toLead = (r: LeadRow): StoredLead => ({
  id: r.id,
  botId: r.bot_local_id,
  remoteBotId: r.remote_bot_id,
  botName: r.bot_name,
  businessName: r.business_name,
  conversationId: r.conversation_id,
  event: r.event,
  name: r.name,
  email: r.email,
  phone: r.phone,
  note: r.note,
  askedForAPerson: r.asked_for_a_person === 1,
  visitorRef: r.visitor_ref,
  startedAt: r.started_at,
  receivedAt: r.received_at,
  handledAt: r.handled_at,
  handledBy: r.handled_by,
  handledChangedAt: r.handled_changed_at,
  handledChangedBy: r.handled_changed_by,
  markUnsent: r.mark_unsent === 1,
});

/**
 * Every word must be found in one of the fields: name, email, phone, the visitor's note, the bot
 * and business names, the visitor reference. A phone also matches by its digits, so "98111 22222",
 * "9811122222" and "+91-98111" find "+91 98111 22222". (Not the raw body: its JSON keys would make
 * "lead" or "name" match every row.) Accents and case do not count: each field goes through
 * `search_fold` (foldForSearch, a function of this connection), as does the word; a desk keeps
 * thousands of leads, not millions, so folding per row is cheap.
 */
const SEARCH_COLUMNS = [
  'name',
  'email',
  'phone',
  "COALESCE(note, '')",
  'bot_name',
  'business_name',
  'visitor_ref',
];
const PHONE_DIGITS =
  "REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(phone, ' ', ''), '-', ''), '+', ''), '(', ''), ')', '')";
const SEARCH_SQL = `(${[
  ...SEARCH_COLUMNS.map((c) => `instr(search_fold(${c}), ?) > 0`),
  `${PHONE_DIGITS} LIKE ? ESCAPE '\\'`,
].join(' OR ')})`;

const searchWords = (query: string | undefined): string[] =>
  (query ?? '').trim().split(/\s+/).filter(Boolean).slice(0, 8);

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

export function createLeadsStore(db: Db) {
  db.function('search_fold', { deterministic: true }, (text: unknown) => foldForSearch(String(text ?? '')));
  const prep = statements(db);
  const insert = prep(
    `INSERT INTO leads (bot_local_id, remote_bot_id, bot_name, business_name, conversation_id, event, name, email,
     phone, note, asked_for_a_person, visitor_ref, started_at, received_at, raw_body, relay_seq)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (bot_local_id, conversation_id) DO NOTHING`,
  );
  const byId = prep('SELECT * FROM leads WHERE id = ?');
  return {
    /** Stores a lead once per conversation: a redelivery returns `stored: false` and changes nothing. */
    insert(
      botId: number,
      lead: ParsedLead,
      rawBody: string,
      relaySeq: number | null = null,
    ): { stored: boolean; lead: StoredLead | null } {
      const info = insert.run(
        botId,
        lead.remoteBotId ?? 0,
        lead.botName,
        lead.businessName,
        lead.conversationId,
        lead.event,
        lead.name,
        lead.email,
        lead.phone,
        lead.note,
        lead.askedForAPerson ? 1 : 0,
        lead.visitorRef,
        lead.startedAt,
        new Date().toISOString(),
        rawBody,
        relaySeq,
      );
      if (info.changes === 0) return { stored: false, lead: null };
      return { stored: true, lead: toLead(byId.get(info.lastInsertRowid) as LeadRow) };
    },
    /** Newest first. */
    list(
      filter: {
        event?: string | undefined;
        handled?: boolean | undefined;
        query?: string | undefined;
        limit?: number;
      } = {},
    ): StoredLead[] {
      const where: string[] = [];
      const args: (string | number)[] = [];
      for (const word of searchWords(filter.query)) {
        where.push(SEARCH_SQL);
        const folded = foldForSearch(word);
        const digits = word.replace(/\D/g, '');
        args.push(...SEARCH_COLUMNS.map(() => folded), `%${escapeLike(digits.length >= 3 ? digits : word)}%`);
      }
      // The filter is by who the lead waits for, as its badge says (issue 23): "Wants a person" is a
      // handoff event or a lead whose visitor asked for a person; "Leads" is every other lead. By the
      // event alone, a lead that asked for a person was badged one way and filtered the other.
      if (filter.event === 'HANDOFF-REQUESTED') where.push(WANTS_A_PERSON_SQL);
      else if (filter.event === 'LEAD-CAPTURED') where.push(`NOT ${WANTS_A_PERSON_SQL}`);
      else if (filter.event) {
        where.push('event = ?');
        args.push(filter.event);
      }
      if (filter.handled !== undefined)
        where.push(filter.handled ? 'handled_at IS NOT NULL' : 'handled_at IS NULL');
      const sql = `SELECT * FROM leads ${where.length ? `WHERE ${where.join(' AND ')}` : ''}
        ORDER BY received_at DESC, id DESC LIMIT ?`;
      return (prep(sql).all(...args, filter.limit ?? 1000) as LeadRow[]).map(toLead);
    },
    get(id: number): StoredLead | null {
      const r = byId.get(id) as LeadRow | undefined;
      return r ? toLead(r) : null;
    },
    /** The delivery body exactly as received. */
    rawBody(id: number): string | null {
      const r = prep('SELECT raw_body FROM leads WHERE id = ?').get(id) as { raw_body: string } | undefined;
      return r?.raw_body ?? null;
    },
    /**
     * This desk's change: kept at once, and marked to be sent to the relay (when there is one). Dated
     * by the lead's hybrid logical clock (handled-clock.ts), so it follows every change seen here; and
     * it is this desk's change (`by`), whoever made the one before.
     */
    setHandled(
      id: number,
      handled: boolean,
      by: string | null = null,
      nowMs = Date.now(),
    ): StoredLead | null {
      const before = this.get(id);
      if (!before) return null;
      const at = nextChangeAt(nowMs, before.handledChangedAt);
      prep(
        `UPDATE leads SET handled_at = ?, handled_by = ?, handled_changed_at = ?, handled_changed_by = ?,
         mark_unsent = 1 WHERE id = ?`,
      ).run(handled ? at : null, handled ? by : null, at, by, id);
      return this.get(id);
    },
    /** Another desk's verified change: applied only when it is newer (last writer wins). */
    applyMark(id: number, m: HandledMark): StoredLead | null {
      const lead = this.get(id);
      if (!lead || !markIsNewer(m, lead)) return null;
      prep(
        `UPDATE leads SET handled_at = ?, handled_by = ?, handled_changed_at = ?, handled_changed_by = ?,
         mark_unsent = 0 WHERE id = ?`,
      ).run(m.handled ? m.at : null, m.handled ? m.by : null, m.at, m.by, id);
      return this.get(id);
    },
    /** Leads whose latest change was made here and has not reached the relay. */
    unsentMarks(): StoredLead[] {
      return (prep('SELECT * FROM leads WHERE mark_unsent = 1 ORDER BY id LIMIT 100').all() as LeadRow[]).map(
        toLead,
      );
    },
    /** The relay has the change made at `at` (a newer one made meanwhile stays unsent). */
    markSent(id: number, at: string): void {
      prep('UPDATE leads SET mark_unsent = 0 WHERE id = ? AND handled_changed_at = ?').run(id, at);
    },
    byConversation(remoteBotId: number, conversationId: number): StoredLead[] {
      return (
        prep('SELECT * FROM leads WHERE remote_bot_id = ? AND conversation_id = ?').all(
          remoteBotId,
          conversationId,
        ) as LeadRow[]
      ).map(toLead);
    },
    removeByBot(botId: number): number {
      return prep('DELETE FROM leads WHERE bot_local_id = ?').run(botId).changes;
    },
    count(): number {
      return (prep('SELECT COUNT(*) AS n FROM leads').get() as { n: number }).n;
    },
  };
}

export type LeadsStore = ReturnType<typeof createLeadsStore>;
