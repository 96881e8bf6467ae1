import { hostname, userInfo } from 'node:os';
import { RelayReadyLineSchema } from '../../../../src-shared/api/relay';
import { type AppError, appError, err, ok, type Result } from '../../../../src-shared/errors';
import type { Db } from '../../../shared-node/sqlite';
import { statements } from '../../../shared-node/statements';
import type { SecretStore } from '../../secrets/keychain';

/** A relay this desk pulls from. */
export interface RelayConfig {
  url: string;
  token: string;
  deskName: string;
  from: 'saved' | 'env';
}

export const RELAY_TOKEN_ACCOUNT = 'relay-read-token';
/**
 * The relay's webhook URL (from its ready line), for the sandbox's demo bot: it carries the relay's
 * webhook secret (its last segment), so it is kept in the secret store like the read token.
 */
export const RELAY_WEBHOOK_ACCOUNT = 'relay-webhook-url';

const isLoopbackUrl = (u: URL) =>
  u.hostname === 'localhost' || u.hostname === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(u.hostname);

/** The desk's name on its "handled" marks: the user and machine, until the person names it. */
export function defaultDeskName(): string {
  let user = 'someone';
  try {
    user = userInfo().username || user;
  } catch {}
  return `${user}@${hostname()}`.slice(0, 100);
}

/**
 * Checks a relay address: http(s), no credentials, query or fragment; `http://` only on this machine
 * unless allowed (the read token would travel in clear).
 */
export function normalizeRelayUrl(raw: string, allowInsecure: boolean): Result<string, AppError> {
  let u: URL;
  try {
    u = new URL(raw.trim());
  } catch {
    return err(appError('RELAY-URL', `"${raw}" is not an address such as https://leads.example.com.`));
  }
  if (u.protocol !== 'https:' && u.protocol !== 'http:')
    return err(appError('RELAY-URL', `The relay's address must start with https://, not ${u.protocol}//.`));
  if (u.username || u.password || u.search || u.hash)
    return err(appError('RELAY-URL', 'The relay address takes no user, password, query or #fragment.'));
  if (u.protocol === 'http:' && !isLoopbackUrl(u) && !allowInsecure)
    return err(
      appError(
        'RELAY-INSECURE',
        `http://${u.host} would send the read token and every lead in clear. Put TLS in front of the relay (docs/relay.md) and use https://, or confirm to use http:// on a network you trust.`,
      ),
    );
  return ok(`${u.origin}${u.pathname.replace(/\/+$/, '')}`);
}

/** What a person pasted: the relay's ready line (JSON), or nothing to read from it. */
export function readPrinted(
  printed: string,
): Result<{ url: string; token: string; webhookUrl: string }, AppError> {
  const line = printed.split('\n').find((l) => l.includes('"ready"')) ?? printed;
  let json: unknown;
  try {
    json = JSON.parse(line.trim());
  } catch {
    return err(
      appError(
        'RELAY-PRINTED',
        'Paste the whole line the relay printed when it started: {"event":"ready",...}.',
      ),
    );
  }
  const p = RelayReadyLineSchema.safeParse(json);
  if (!p.success)
    return err(
      appError('RELAY-PRINTED', 'That line has no "url" and "token": paste the relay\'s "ready" line.'),
    );
  return ok({ url: p.data.public_url ?? p.data.url, token: p.data.token, webhookUrl: p.data.webhook_url });
}

/**
 * The relay settings: ASSETS_RELAY_URL and ASSETS_RELAY_TOKEN (for scripts and services) win over
 * what was saved here; the saved token is in the secret store, never in the database.
 */
export function relaySettings(db: Db, secrets: SecretStore, env: NodeJS.ProcessEnv = process.env) {
  const prep = statements(db);
  const row = () =>
    prep('SELECT url, desk_name, allow_insecure FROM leads_relay WHERE id = 1').get() as
      | { url: string; desk_name: string; allow_insecure: number }
      | undefined;
  return {
    /** The relay in use, or null. A saved relay whose token cannot be read is an error value. */
    current(): Result<RelayConfig | null, AppError> {
      const envUrl = env.ASSETS_RELAY_URL?.trim();
      if (envUrl) {
        const token = env.ASSETS_RELAY_TOKEN?.trim();
        if (!token)
          return err(
            appError('RELAY-TOKEN-MISSING', 'ASSETS_RELAY_URL is set but ASSETS_RELAY_TOKEN is not.'),
          );
        // A service that set http:// on purpose in its environment has confirmed it.
        const url = normalizeRelayUrl(envUrl, true);
        if (!url.ok) return url;
        return ok({ url: url.value, token, deskName: row()?.desk_name ?? defaultDeskName(), from: 'env' });
      }
      const saved = row();
      if (!saved) return ok(null);
      let token: string | null;
      try {
        token = secrets.get(RELAY_TOKEN_ACCOUNT);
      } catch (e) {
        return err(appError((e as { code?: string }).code ?? 'SECRETS', (e as Error).message));
      }
      if (!token)
        return err(
          appError(
            'RELAY-TOKEN-MISSING',
            "The relay's read token is not in the secret store: connect to the relay again.",
          ),
        );
      return ok({ url: saved.url, token, deskName: saved.desk_name, from: 'saved' });
    },
    /** The address without touching the secret store (for the view). */
    savedUrl: () => row()?.url ?? null,
    deskName: () => row()?.desk_name ?? defaultDeskName(),
    /**
     * The relay's webhook URL, when the person gave it (its ready line): where the sandbox's demo bot
     * posts while this relay is in use. Null when unknown, or the secret store cannot be read; never
     * for a relay set by the environment (its webhook URL was not given here).
     */
    webhookUrl(): string | null {
      if (env.ASSETS_RELAY_URL?.trim() || !row()) return null;
      try {
        return secrets.get(RELAY_WEBHOOK_ACCOUNT);
      } catch {
        return null;
      }
    },
    /** Token first: a secret store that cannot keep it leaves nothing half saved. */
    save(c: {
      url: string;
      token: string;
      deskName: string;
      allowInsecure: boolean;
      webhookUrl?: string;
    }): void {
      secrets.set(RELAY_TOKEN_ACCOUNT, c.token);
      if (c.webhookUrl) secrets.set(RELAY_WEBHOOK_ACCOUNT, c.webhookUrl);
      else secrets.delete(RELAY_WEBHOOK_ACCOUNT);
      prep(
        `INSERT INTO leads_relay (id, url, desk_name, allow_insecure) VALUES (1, ?, ?, ?)
         ON CONFLICT (id) DO UPDATE SET url = excluded.url, desk_name = excluded.desk_name,
         allow_insecure = excluded.allow_insecure`,
      ).run(c.url, c.deskName, c.allowInsecure ? 1 : 0);
    },
    remove(): void {
      prep('DELETE FROM leads_relay WHERE id = 1').run();
      secrets.delete(RELAY_TOKEN_ACCOUNT);
      secrets.delete(RELAY_WEBHOOK_ACCOUNT);
    },
    cursor(url: string): { cursor: number; lastPullAt: string | null; waiting: number; expired: number } {
      const r = prep(
        'SELECT cursor, last_pull_at, waiting, expired FROM leads_relay_cursor WHERE url = ?',
      ).get(url) as
        | { cursor: number; last_pull_at: string | null; waiting: number; expired: number }
        | undefined;
      return {
        cursor: r?.cursor ?? 0,
        lastPullAt: r?.last_pull_at ?? null,
        waiting: r?.waiting ?? 0,
        expired: r?.expired ?? 0,
      };
    },
    /** `expired`: deliveries this answer says retention deleted before they were read (added up). */
    saveCursor(url: string, cursor: number, waiting: number, at: string, expired = 0): void {
      prep(
        `INSERT INTO leads_relay_cursor (url, cursor, last_pull_at, waiting, expired) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT (url) DO UPDATE SET cursor = excluded.cursor, last_pull_at = excluded.last_pull_at,
         waiting = excluded.waiting, expired = leads_relay_cursor.expired + excluded.expired`,
      ).run(url, cursor, at, waiting, expired);
    },
  };
}

export type RelaySettings = ReturnType<typeof relaySettings>;
