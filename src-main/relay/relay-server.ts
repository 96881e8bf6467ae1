import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { EVENT_HEADER, SIGNATURE_HEADER } from '../../src-shared/api/knowledge';
import { parseLeadDelivery } from '../../src-shared/api/lead-delivery';
import {
  RELAY_FEED_PATH,
  RELAY_HOOK_PREFIX,
  RELAY_MARKS_PATH,
  RELAY_MAX_BATCH,
  RELAY_MAX_WAIT_S,
  RELAY_STATUS_PATH,
  type RelayMarkInput,
  RelayMarkInputSchema,
} from '../../src-shared/api/relay';
import { type GuardLimits, guardConnections } from '../shared-node/connection-guard';
import { openDataDir } from '../shared-node/private-files';
import {
  DEFAULT_MAX_BODY_BYTES,
  RECEIVER_LIMITS,
  readBodyOr413,
  receiverServerOptions,
  replyJson,
  replyJsonText,
  replyNotALead,
} from '../shared-node/webhook-limits';
import { feedAnswers } from './feed-answers';
import { groupCommit } from './group-commit';
import { openRelayDatabase, relayDatabaseTooNew } from './relay-db';
import { bearerToken, loadOrCreateKeys, sameSecret } from './relay-keys';
import { createRelayStore, type IncomingDelivery } from './relay-store';

export interface RelayOptions {
  dataDir: string;
  host?: string;
  port?: number;
  /** The address the service and desks reach (behind TLS); the webhook URL is built on it. */
  publicUrl?: string;
  /** Deliveries and marks older than this are deleted (default 90 days). */
  retentionDays?: number;
  maxBodyBytes?: number;
  /** Connection and per-address limits (defaults: the desktop receiver's). */
  limits?: Partial<GuardLimits>;
  /** Replace the read token (a stolen one stops working; desks need the new one). */
  newReadToken?: boolean;
  /** Long polls waiting at once, all tokens together (default RELAY_POLL_LIMITS). */
  maxWaiters?: number;
  /** Long polls waiting at once with one read token (default RELAY_POLL_LIMITS). */
  maxWaitersPerToken?: number;
  now?: () => number;
  log?: (line: string) => void;
  /** Called when a feed request starts waiting (tests await it instead of sleeping). */
  onPollWaiting?: () => void;
}

export interface RunningRelay {
  readonly url: string;
  readonly webhookUrl: string;
  readonly token: string;
  readonly host: string;
  readonly port: number;
  /** Deliveries stored so far (tests and the benchmark verify their figures with it). */
  stored(): number;
  /** Feed answers read from the database so far (the rest were kept answers: feed-answers.ts). */
  feedReads(): number;
  close(): Promise<void>;
}

export const DEFAULT_RETENTION_DAYS = 90;
export const DEFAULT_RELAY_PORT = 8790;
const SWEEP_EVERY_MS = 60 * 60 * 1000;
const MARKS_BODY_LIMIT = 64 * 1024;
const SIGNATURE_FORMAT = /^sha256=[0-9a-fA-F]{64}$/;

/**
 * Long polls hold a connection each, and every desk has the read token: without their own cap, 256
 * polls filled the 256 connections and the service's deliveries were refused (issue 32). So polls
 * may take at most half the connections, a token at most a quarter; a poll past its cap answers the
 * oldest waiting one of its token at once (that desk asks again; nobody waits forever), and a
 * server full of busy connections answers its oldest poll and closes it to let a delivery in.
 */
export const RELAY_POLL_LIMITS = {
  maxWaiters: Math.floor(RECEIVER_LIMITS.maxConnections / 2),
  maxWaitersPerToken: Math.floor(RECEIVER_LIMITS.maxConnections / 4),
} as const;

interface Waiter {
  token: string;
  /** Something was committed (or the relay closes): answer with what follows the cursor. */
  wake(): void;
  /** Answer now, empty, to make room; `close` ends its connection after the answer (for a delivery). */
  answerEarly(close: boolean): void;
}

const notFound = (res: ServerResponse) => replyJson(res, 404, { ok: false, error: 'Nothing here.' });
const onlyMethod = (res: ServerResponse, method: string) => {
  res.setHeader('allow', method);
  replyJson(res, 405, { ok: false, error: `This address accepts ${method} only.` });
};
const header = (req: IncomingMessage, name: string): string | null => {
  const v = req.headers[name];
  return (Array.isArray(v) ? v[0] : v) ?? null;
};

/**
 * The relay: takes the service's lead deliveries on a secret webhook path and answers 2xx only once
 * the exact bytes are on disk (relay-db.ts); desks read them with the read token and a cursor of
 * their own, by long poll. It never holds a bot's signing secret, so it checks only that a delivery
 * is signed and shaped like one; each desk verifies the signature before a lead enters its inbox.
 */
export async function startRelay(o: RelayOptions): Promise<RunningRelay> {
  const now = o.now ?? Date.now;
  const log = o.log ?? ((line: string) => process.stderr.write(`relay: ${line}\n`));
  const limit = o.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const retentionMs = (o.retentionDays ?? DEFAULT_RETENTION_DAYS) * 24 * 60 * 60 * 1000;
  // A database a later relay migrated: refused before the folder or a file in it is touched.
  const newer = relayDatabaseTooNew(join(o.dataDir, 'relay.sqlite'));
  if (newer) throw newer;
  // A shared or foreign folder is refused untouched (never chmod'ed 0700 under everyone, nothing written).
  const folder = openDataDir(o.dataDir, 'relay.sqlite', true);
  if (!folder.ok)
    throw Object.assign(new Error(`${folder.error.code}: ${folder.error.message}`), {
      code: folder.error.code,
    });
  const db = openRelayDatabase(join(o.dataDir, 'relay.sqlite'));
  const keys = loadOrCreateKeys(db, { newReadToken: o.newReadToken ?? false });
  const store = createRelayStore(db, now);
  const answers = feedAnswers(store);
  // Oldest first: a Set keeps insertion order.
  const waiters = new Set<Waiter>();
  const maxWaiters = o.maxWaiters ?? RELAY_POLL_LIMITS.maxWaiters;
  const maxPerToken = o.maxWaitersPerToken ?? RELAY_POLL_LIMITS.maxWaitersPerToken;
  let closed = false;
  const wakeAll = () => {
    for (const w of [...waiters]) w.wake();
  };
  const oldestWaiter = (token?: string): Waiter | null => {
    for (const w of waiters) if (token === undefined || w.token === token) return w;
    return null;
  };
  /** Before a poll waits: the oldest one of its token (or of all) answers if a cap is reached. */
  const roomForPoll = (token: string) => {
    let mine = 0;
    for (const w of waiters) if (w.token === token) mine++;
    if (mine >= maxPerToken) oldestWaiter(token)?.answerEarly(false);
    else if (waiters.size >= maxWaiters) oldestWaiter()?.answerEarly(false);
  };
  const storeDelivery = groupCommit((items: IncomingDelivery[]) => {
    const r = store.storeDeliveries(items);
    if (r.some((x) => !x.duplicate)) setImmediate(wakeAll);
    return r;
  });

  const sweep = () => {
    try {
      const gone = store.sweep(now() - retentionMs);
      if (gone.deliveries || gone.marks)
        log(
          `retention: deleted ${gone.deliveries} deliveries and ${gone.marks} marks older than ${o.retentionDays ?? DEFAULT_RETENTION_DAYS} days`,
        );
    } catch (error) {
      log(`retention sweep failed (retried in an hour): ${(error as Error).message}`);
    }
  };
  sweep();
  const sweeper = setInterval(sweep, SWEEP_EVERY_MS);
  sweeper.unref();

  async function onHook(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (req.method !== 'POST') return onlyMethod(res, 'POST');
    const raw = await readBodyOr413(req, res, limit);
    if (raw === null) return;
    const signature = header(req, SIGNATURE_HEADER)?.trim() ?? null;
    // The relay cannot check the HMAC (it has no secret), but an unsigned delivery could never pass a desk.
    if (!signature || !SIGNATURE_FORMAT.test(signature))
      return replyJson(res, 401, {
        ok: false,
        error: 'The X-Service-Signature header is missing or not sha256=<64 hex>.',
      });
    const parsed = parseLeadDelivery(raw.toString('utf8'));
    if (!parsed.ok) return replyNotALead(res, parsed);
    let result: { seq: number; duplicate: boolean };
    try {
      result = await storeDelivery({
        botId: parsed.lead.remoteBotId ?? 0,
        conversationId: parsed.lead.conversationId,
        event: header(req, EVENT_HEADER),
        signature,
        contentType: header(req, 'content-type'),
        body: raw,
      });
    } catch (error) {
      // Not on disk: a 5xx makes the service retry, so nothing is lost.
      log(`could not store a delivery: ${(error as Error).message}`);
      return replyJson(res, 503, {
        ok: false,
        error: 'The delivery could not be stored right now; retry later.',
      });
    }
    replyJson(res, 200, { ok: true, duplicate: result.duplicate });
  }

  function intParam(url: URL, name: string, fallback: number, max: number): number | string {
    const v = url.searchParams.get(name);
    if (v === null) return fallback;
    if (!/^\d{1,15}$/.test(v) || Number(v) > max) return `${name} must be a whole number from 0 to ${max}`;
    return Number(v);
  }

  async function onFeed(req: IncomingMessage, res: ServerResponse, url: URL, token: string): Promise<void> {
    if (req.method !== 'GET') return onlyMethod(res, 'GET');
    const after = intParam(url, 'after', 0, Number.MAX_SAFE_INTEGER);
    const wait = intParam(url, 'wait', 0, RELAY_MAX_WAIT_S);
    const max = intParam(url, 'limit', RELAY_MAX_BATCH, RELAY_MAX_BATCH);
    for (const v of [after, wait, max])
      if (typeof v === 'string') return replyJson(res, 400, { ok: false, error: v });
    // Between polls its connection is the first closed when room is needed: polls are what anyone
    // with the read token can flood with, deliveries are what must get in.
    guard.expendable(req.socket);
    const read = () => answers.answer(after as number, Math.max(1, max as number));
    let feed = read();
    const empty = feed.empty;
    // Closing: answer at once, so a poll that came on a kept-alive connection does not hold the stop.
    if (empty && !closed && (wait as number) > 0 && maxWaiters > 0 && maxPerToken > 0) {
      roomForPoll(token);
      let early = false;
      await new Promise<void>((resolve) => {
        const done = () => {
          waiters.delete(waiter);
          clearTimeout(timer);
          res.off('close', done);
          resolve();
        };
        const waiter: Waiter = {
          token,
          wake: () => done(),
          answerEarly(close) {
            if (close) res.setHeader('connection', 'close');
            early = true;
            done();
          },
        };
        const timer = setTimeout(done, (wait as number) * 1000);
        waiters.add(waiter);
        res.once('close', done);
        o.onPollWaiting?.();
      });
      if (res.destroyed) return;
      // Answered early to make room, nothing came: the empty answer read before waiting still holds
      // (what came meanwhile would have woken it), and a flood of polls costs no read of the database.
      if (!early) feed = read();
    }
    // Stopping: the answer ends its connection. A desk asks again at once on a kept-alive one, and
    // each ask was answered at once and kept alive, so the stop waited as long as the desk polled.
    if (closed) res.setHeader('connection', 'close');
    replyJsonText(res, 200, feed.text);
  }

  async function onMarks(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (req.method !== 'POST') return onlyMethod(res, 'POST');
    const raw = await readBodyOr413(req, res, MARKS_BODY_LIMIT);
    if (raw === null) return;
    let json: unknown;
    try {
      json = JSON.parse(raw.toString('utf8'));
    } catch {
      return replyJson(res, 400, { ok: false, error: 'The body is not JSON.' });
    }
    const list = (json as { marks?: unknown } | null)?.marks;
    if (!Array.isArray(list) || list.length === 0 || list.length > 100)
      return replyJson(res, 422, { ok: false, error: 'marks: a list of 1 to 100 marks', field: 'marks' });
    const marks: RelayMarkInput[] = [];
    for (const [i, m] of list.entries()) {
      const p = RelayMarkInputSchema.safeParse(m);
      if (!p.success) {
        const issue = p.error.issues[0]!;
        const field = ['marks', i, ...issue.path].join('.');
        return replyJson(res, 422, { ok: false, error: `${field}: ${issue.message}`, field });
      }
      marks.push(p.data);
    }
    let stored: { seq: number; duplicate: boolean }[];
    try {
      stored = store.addMarks(marks);
    } catch (error) {
      log(`could not store marks: ${(error as Error).message}`);
      return replyJson(res, 503, {
        ok: false,
        error: 'The marks could not be stored right now; retry later.',
      });
    }
    if (stored.some((s) => !s.duplicate)) wakeAll();
    replyJson(res, 200, { ok: true, seqs: stored.map((s) => s.seq) });
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (!guard.admit(req, res)) return;
    let url: URL;
    try {
      url = new URL(req.url ?? '/', 'http://relay');
    } catch {
      return replyJson(res, 400, { ok: false, error: 'The request target is not a path.' });
    }
    const path = url.pathname;
    if (path === '/healthz') return replyJson(res, 200, { ok: true });
    if (path.startsWith(RELAY_HOOK_PREFIX)) {
      // A wrong secret looks like no page at all: a scanner learns nothing.
      if (!sameSecret(path.slice(RELAY_HOOK_PREFIX.length), keys.webhookSecret)) return notFound(res);
      return onHook(req, res);
    }
    if (![RELAY_FEED_PATH, RELAY_MARKS_PATH, RELAY_STATUS_PATH].includes(path)) return notFound(res);
    const token = bearerToken(header(req, 'authorization') ?? undefined);
    if (token === null || !sameSecret(token, keys.readToken)) {
      res.setHeader('www-authenticate', 'Bearer');
      return replyJson(res, 401, { ok: false, error: 'The read token is missing or wrong.' });
    }
    if (path === RELAY_FEED_PATH) return onFeed(req, res, url, token);
    if (path === RELAY_MARKS_PATH) return onMarks(req, res);
    if (req.method !== 'GET') return onlyMethod(res, 'GET');
    return replyJson(res, 200, {
      ok: true,
      ...store.status(),
      retentionDays: o.retentionDays ?? DEFAULT_RETENTION_DAYS,
    });
  }

  const server: Server = createServer(receiverServerOptions(), (req, res) => {
    handle(req, res).catch((error: unknown) => {
      log(`request failed: ${(error as Error).message}`);
      replyJson(res, 400, { ok: false, error: 'The request could not be read.' });
    });
  });
  const guard = guardConnections(
    server,
    {
      maxConnections: RECEIVER_LIMITS.maxConnections,
      maxPerPeer: RECEIVER_LIMITS.maxPerPeer,
      requestsPerPeerPerMinute: RECEIVER_LIMITS.requestsPerPeerPerMinute,
      ...o.limits,
    },
    now,
    {
      makeRoom() {
        const oldest = oldestWaiter();
        oldest?.answerEarly(true);
        return oldest !== null;
      },
    },
  );

  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(o.port ?? DEFAULT_RELAY_PORT, o.host ?? '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    });
  } catch (error) {
    clearInterval(sweeper);
    db.close();
    throw error;
  }
  const address = server.address() as AddressInfo;
  const host = address.address.includes(':') ? `[${address.address}]` : address.address;
  const url = `http://${host}:${address.port}`;
  const base = (o.publicUrl ?? url).replace(/\/+$/, '');
  return {
    url,
    webhookUrl: `${base}${RELAY_HOOK_PREFIX}${keys.webhookSecret}`,
    token: keys.readToken,
    host: address.address,
    port: address.port,
    stored: () => store.status().deliveries,
    feedReads: () => answers.reads(),
    async close() {
      if (closed) return;
      closed = true;
      clearInterval(sweeper);
      const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
      // Long polls answer now (with what there is) so their connections can end.
      wakeAll();
      server.closeIdleConnections();
      await stopped;
      db.close();
    },
  };
}
