import { createHmac, timingSafeEqual } from 'node:crypto';
import { parseLeadDelivery } from '../../../../src-shared/api/lead-delivery';
import {
  markSigningText,
  type RelayFeed,
  type RelayMark,
  type RelayMarkInput,
} from '../../../../src-shared/api/relay';
import type { RejectedDelivery } from '../../../../src-shared/contract/leads';
import type { Db } from '../../../shared-node/sqlite';
import { statements } from '../../../shared-node/statements';
import type { LeadsStore, StoredLead } from '../leads-store';
import type { SigningKey } from '../receiver';
import { whichSecretSigned } from '../signature';

const REASONS = {
  'SIGNATURE-MISSING': 'It carries no X-Service-Signature: the service signs every delivery.',
  'SIGNATURE-MISMATCH':
    'Its signature matches no signing secret on this desk: forged or altered, or from a bot whose secret is not set up here (it is checked again when one is added).',
} as const;

const markHmac = (m: Omit<RelayMarkInput, 'sig'>, secret: string) =>
  createHmac('sha256', secret).update(markSigningText(m), 'utf8').digest();

export function signMark(m: Omit<RelayMarkInput, 'sig'>, secret: string): RelayMarkInput {
  return { ...m, sig: markHmac(m, secret).toString('hex') };
}

export function markSignedBy(m: RelayMarkInput, secret: string): boolean {
  return timingSafeEqual(Buffer.from(m.sig, 'hex'), markHmac(m, secret));
}

interface RejectedRow {
  id: number;
  relay_url: string;
  relay_seq: number;
  received_at: string;
  event: string | null;
  signature: string | null;
  body: Buffer;
  code: string;
  reason: string;
  remote_bot_id: number | null;
  conversation_id: number | null;
}

export interface Applied {
  added: StoredLead[];
  changed: StoredLead[];
  rejected: number;
}

/**
 * What a desk does with what its relay hands on. The relay is not trusted: a delivery enters the
 * inbox only when its HMAC over the exact bytes matches a bot's signing secret on this desk, and a
 * "handled" mark only when it is signed with the secret of the lead's bot. What fails is kept,
 * counted and named (leads_rejected), and checked again when a secret is added.
 */
export function createRelayInbox(db: Db, store: LeadsStore, keys: () => readonly SigningKey[]) {
  const prep = statements(db);
  const secretOf = (botId: number) => keys().find((k) => k.botId === botId)?.secret ?? null;

  /** Verifies and stores one delivery; returns the new lead, null for a repeat, or the rejection. */
  function take(
    seq: number,
    body: Buffer,
    signature: string | null,
  ): { lead: StoredLead | null } | { code: string; reason: string } {
    if (!signature) return { code: 'SIGNATURE-MISSING', reason: REASONS['SIGNATURE-MISSING'] };
    const signer = whichSecretSigned(body, signature, keys());
    if (!signer) return { code: 'SIGNATURE-MISMATCH', reason: REASONS['SIGNATURE-MISMATCH'] };
    const parsed = parseLeadDelivery(body.toString('utf8'));
    if (!parsed.ok) return { code: parsed.code === 'SHAPE' ? 'SHAPE' : 'NOT-JSON', reason: parsed.message };
    const r = store.insert(signer.botId, parsed.lead, body.toString('utf8'), seq);
    if (!r.lead) return { lead: null };
    // A mark that came before its lead (or before this desk could verify the lead) applies now.
    const early = prep(
      'SELECT handled, by, at, sig FROM leads_marks_waiting WHERE remote_bot_id = ? AND conversation_id = ?',
    ).all(parsed.lead.remoteBotId ?? 0, parsed.lead.conversationId) as {
      handled: number;
      by: string;
      at: string;
      sig: string;
    }[];
    let lead = r.lead;
    for (const w of early) {
      const m: RelayMarkInput = {
        botId: parsed.lead.remoteBotId ?? 0,
        conversationId: parsed.lead.conversationId,
        handled: w.handled === 1,
        by: w.by,
        at: w.at,
        sig: w.sig,
      };
      if (markSignedBy(m, signer.secret)) lead = store.applyMark(lead.id, m) ?? lead;
    }
    return { lead };
  }

  function reject(
    url: string,
    seq: number,
    d: { receivedAt: string; event: string | null; signature: string | null },
    body: Buffer,
    why: { code: string; reason: string },
  ) {
    const parsed = parseLeadDelivery(body.toString('utf8'));
    let botId: number | null = null;
    let conversationId: number | null = null;
    if (parsed.ok) {
      botId = parsed.lead.remoteBotId;
      conversationId = parsed.lead.conversationId;
    }
    prep(
      `INSERT INTO leads_rejected (relay_url, relay_seq, received_at, event, signature, body, code, reason,
         remote_bot_id, conversation_id, rejected_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (relay_url, relay_seq) DO NOTHING`,
    ).run(
      url,
      seq,
      d.receivedAt,
      d.event,
      d.signature,
      body,
      why.code,
      why.reason,
      botId,
      conversationId,
      new Date().toISOString(),
    );
  }

  function applyMark(m: RelayMark): StoredLead[] {
    const leads = store.byConversation(m.botId, m.conversationId);
    if (leads.length === 0) {
      prep(
        `INSERT INTO leads_marks_waiting (remote_bot_id, conversation_id, handled, by, at, sig)
         VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`,
      ).run(m.botId, m.conversationId, m.handled ? 1 : 0, m.by, m.at, m.sig);
      return [];
    }
    const changed: StoredLead[] = [];
    for (const lead of leads) {
      const secret = secretOf(lead.botId);
      if (!secret || !markSignedBy(m, secret)) continue;
      const after = store.applyMark(lead.id, m);
      if (after) changed.push(after);
    }
    return changed;
  }

  return {
    /** One feed in one transaction, the cursor with it: a crash re-reads the feed, never skips it. */
    apply: db.transaction((url: string, feed: RelayFeed, saveCursor: () => void): Applied => {
      const out: Applied = { added: [], changed: [], rejected: 0 };
      for (const d of feed.deliveries) {
        const body = Buffer.from(d.body, 'base64');
        const r = take(d.seq, body, d.signature);
        if ('code' in r) {
          reject(url, d.seq, d, body, r);
          out.rejected++;
        } else if (r.lead) out.added.push(r.lead);
      }
      for (const m of feed.marks) out.changed.push(...applyMark(m));
      saveCursor();
      return out;
    }),

    /** Deliveries refused for their signature, checked again (a bot's secret was added or changed). */
    recheck: db.transaction((): StoredLead[] => {
      const rows = prep(
        "SELECT * FROM leads_rejected WHERE code IN ('SIGNATURE-MISMATCH') ORDER BY relay_seq",
      ).all() as RejectedRow[];
      const added: StoredLead[] = [];
      for (const row of rows) {
        const r = take(row.relay_seq, row.body, row.signature);
        if ('code' in r && r.code === row.code) continue;
        prep('DELETE FROM leads_rejected WHERE id = ?').run(row.id);
        if ('code' in r)
          reject(
            row.relay_url,
            row.relay_seq,
            { receivedAt: row.received_at, event: row.event, signature: row.signature },
            row.body,
            r,
          );
        else if (r.lead) added.push(r.lead);
      }
      return added;
    }),

    markSent: (leadId: number, at: string) => store.markSent(leadId, at),

    rejectedCount: () => (prep('SELECT COUNT(*) AS n FROM leads_rejected').get() as { n: number }).n,

    rejected(): RejectedDelivery[] {
      const rows = prep(
        'SELECT * FROM leads_rejected ORDER BY relay_seq DESC LIMIT 200',
      ).all() as RejectedRow[];
      return rows.map((r) => {
        const parsed = parseLeadDelivery(r.body.toString('utf8'));
        return {
          id: r.id,
          relaySeq: r.relay_seq,
          receivedAt: r.received_at,
          code: r.code,
          reason: r.reason,
          conversationId: r.conversation_id,
          claimedBotId: r.remote_bot_id,
          claimedName: parsed.ok ? parsed.lead.name : '',
        };
      });
    },

    /** This desk's unsent "handled" changes, each signed with its lead's bot secret. */
    unsentMarks(deskName: string): { leadId: number; at: string; mark: RelayMarkInput }[] {
      const out: { leadId: number; at: string; mark: RelayMarkInput }[] = [];
      for (const lead of store.unsentMarks()) {
        const secret = secretOf(lead.botId);
        if (!secret || !lead.handledChangedAt) continue;
        const mark = signMark(
          {
            botId: lead.remoteBotId ?? 0,
            conversationId: lead.conversationId,
            handled: lead.handledAt !== null,
            by: lead.handledChangedBy ?? deskName,
            at: lead.handledChangedAt,
          },
          secret,
        );
        out.push({ leadId: lead.id, at: lead.handledChangedAt, mark });
      }
      return out;
    },
  };
}

export type RelayInbox = ReturnType<typeof createRelayInbox>;
