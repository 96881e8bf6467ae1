import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Db } from '../shared-node/sqlite';

/**
 * Two secrets of the relay, made on its first start and kept in its database (a relay box has no
 * keychain; the data folder is 0700 and the database 0600):
 * - the webhook secret, the last segment of the URL pasted in the bot's editor: only the service
 *   (and whoever sees that editor) can post deliveries;
 * - the read token desks send: it reads deliveries and posts signed marks, never a delivery.
 */
export interface RelayKeys {
  webhookSecret: string;
  readToken: string;
}

const fresh = (prefix: string) => `${prefix}${randomBytes(32).toString('base64url')}`;

export function loadOrCreateKeys(db: Db, options: { newReadToken?: boolean } = {}): RelayKeys {
  let row = db.prepare('SELECT webhook_secret, read_token FROM relay_keys WHERE id = 1').get() as
    | { webhook_secret: string; read_token: string }
    | undefined;
  if (!row) {
    row = { webhook_secret: fresh('wh_'), read_token: fresh('rlt_') };
    db.prepare('INSERT INTO relay_keys (id, webhook_secret, read_token, created_at) VALUES (1, ?, ?, ?)').run(
      row.webhook_secret,
      row.read_token,
      new Date().toISOString(),
    );
  } else if (options.newReadToken) {
    row = { ...row, read_token: fresh('rlt_') };
    db.prepare('UPDATE relay_keys SET read_token = ? WHERE id = 1').run(row.read_token);
  }
  return { webhookSecret: row.webhook_secret, readToken: row.read_token };
}

const digest = (text: string) => createHash('sha256').update(text, 'utf8').digest();

/**
 * Constant time whatever is given: both sides are hashed first, so lengths always match and how
 * long a refusal takes says nothing about how much of the secret was right.
 */
export function sameSecret(given: string, expected: string): boolean {
  return timingSafeEqual(digest(given), digest(expected));
}

/** The token of `Authorization: Bearer <token>`, or null. */
export function bearerToken(header: string | undefined): string | null {
  const m = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
  return m ? m[1]! : null;
}
