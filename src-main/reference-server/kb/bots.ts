import { createHash, randomBytes } from 'node:crypto';
import type { Db } from '../../shared-node/sqlite';
import { statements } from '../../shared-node/statements';

export interface Bot {
  id: number;
  clientId: number;
  name: string;
  businessName: string;
  webhookUrl: string | null;
  signingSecret: string;
}

interface BotRow {
  id: number;
  client_id: number;
  name: string;
  business_name: string;
  webhook_url: string | null;
  signing_secret: string;
}

const toBot = (r: BotRow): Bot => ({
  id: r.id,
  clientId: r.client_id,
  name: r.name,
  businessName: r.business_name,
  webhookUrl: r.webhook_url,
  signingSecret: r.signing_secret,
});

const COLUMNS = 'id, client_id, name, business_name, webhook_url, signing_secret';

export const tokenDigest = (token: string): string => createHash('sha256').update(token).digest('hex');

/** The bots table: who owns which entries, where leads go, and the secrets that prove both. */
export function botStore(db: Db) {
  const prep = statements(db);
  const byId = prep(`SELECT ${COLUMNS} FROM kb_bots WHERE id = ?`);
  const byDigest = prep(`SELECT ${COLUMNS} FROM kb_bots WHERE token_sha256 = ?`);
  const insert = prep(
    `INSERT INTO kb_bots (client_id, name, business_name, webhook_url, token_sha256, signing_secret, created_at_ms)
     VALUES (?, ?, ?, ?, ?, ?, ?)`,
  );
  const setUrl = prep('UPDATE kb_bots SET webhook_url = ? WHERE id = ?');

  return {
    get(id: number): Bot | null {
      const row = byId.get(id) as BotRow | undefined;
      return row ? toBot(row) : null;
    },
    /** The token itself is never stored: the lookup goes through its digest. */
    byToken(token: string): Bot | null {
      const row = byDigest.get(tokenDigest(token)) as BotRow | undefined;
      return row ? toBot(row) : null;
    },
    create(
      fields: { clientId: number; name: string; businessName: string; webhookUrl: string | null },
      nowMs: number,
    ) {
      const token = `kbt_${randomBytes(24).toString('base64url')}`;
      const signingSecret = `whsec_${randomBytes(24).toString('base64url')}`;
      const info = insert.run(
        fields.clientId,
        fields.name,
        fields.businessName,
        fields.webhookUrl,
        tokenDigest(token),
        signingSecret,
        nowMs,
      );
      return { bot: this.get(Number(info.lastInsertRowid))!, token, signingSecret };
    },
    setWebhookUrl(id: number, url: string | null): Bot | null {
      setUrl.run(url, id);
      return this.get(id);
    },
  };
}

export type BotStore = ReturnType<typeof botStore>;

/** Clients belong to the file-hosting module; this asks its table by id without depending on its code. */
export function clientExists(db: Db, clientId: number): boolean {
  const prep = statements(db);
  try {
    return prep('SELECT 1 FROM clients WHERE id = ?').get(clientId) !== undefined;
  } catch {
    // No clients table (file hosting absent): no client exists.
    return false;
  }
}
