import { createHash, randomBytes } from 'node:crypto';
import type { Db } from '../../../shared-node/sqlite';
import { statements } from '../../../shared-node/statements';

export type ClientStatus = 'ACTIVE' | 'PAUSED' | 'CLOSED';

export interface ClientRow {
  id: number;
  name: string;
  default_bucket: string;
  status: ClientStatus;
  balance_paise: number;
  arrears_paise: number;
  arrears_since: number | null;
  closed_at: number | null;
  created_at: number;
}

/** Keys are shown once and stored only as this digest. */
export function keyDigest(apiKey: string): string {
  return createHash('sha256').update(apiKey).digest('hex');
}

function newApiKey(): string {
  return `ask_${randomBytes(32).toString('base64url')}`;
}

/** Clients and their API keys. */
export function clientStore(db: Db) {
  const prep = statements(db);
  const insertClient = prep(
    'INSERT INTO clients (name, default_bucket, balance_paise, created_at) VALUES (?, ?, ?, ?)',
  );
  const byId = prep('SELECT * FROM clients WHERE id = ?');
  const insertKey = prep('INSERT INTO api_keys (client_id, digest, created_at) VALUES (?, ?, ?)');
  const byKey = prep(
    'SELECT c.* FROM api_keys k JOIN clients c ON c.id = k.client_id WHERE k.digest = ? AND k.revoked_at IS NULL',
  );
  const revoke = prep('UPDATE api_keys SET revoked_at = COALESCE(revoked_at, ?) WHERE id = ?');
  const keyExists = prep('SELECT id FROM api_keys WHERE id = ?');
  const open = prep("SELECT * FROM clients WHERE status != 'CLOSED' ORDER BY id");
  const close = prep("UPDATE clients SET status = 'CLOSED', closed_at = ? WHERE id = ?");

  const mintKey = (clientId: number, now: number) => {
    const apiKey = newApiKey();
    const info = insertKey.run(clientId, keyDigest(apiKey), now);
    return { api_key: apiKey, key_id: Number(info.lastInsertRowid) };
  };

  return {
    create(input: { name: string; walletPaise: number; defaultBucket: string }, now: number) {
      return db.transaction(() => {
        const info = insertClient.run(input.name, input.defaultBucket, input.walletPaise, now);
        const id = Number(info.lastInsertRowid);
        return { client: byId.get(id) as ClientRow, ...mintKey(id, now) };
      })();
    },
    get: (id: number) => byId.get(id) as ClientRow | undefined,
    byApiKey: (apiKey: string) => byKey.get(keyDigest(apiKey)) as ClientRow | undefined,
    mintKey,
    /** False when there is no such key; revoking twice is fine. */
    revokeKey(keyId: number, now: number): boolean {
      if (!keyExists.get(keyId)) return false;
      revoke.run(now, keyId);
      return true;
    },
    notClosed: () => open.all() as ClientRow[],
    close: (id: number, at: number) => void close.run(at, id),
  };
}
export type ClientStore = ReturnType<typeof clientStore>;
