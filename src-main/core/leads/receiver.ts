import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SIGNATURE_HEADER } from '../../../src-shared/api/knowledge';
import { type GuardLimits, guardConnections } from '../../shared-node/connection-guard';
import {
  DEFAULT_MAX_BODY_BYTES,
  RECEIVER_LIMITS,
  readBodyOr413,
  receiverServerOptions,
  replyJson as reply,
  replyNotALead,
} from '../../shared-node/webhook-limits';
import type { LeadsStore, StoredLead } from './leads-store';
import { parseLeadDelivery } from './payload';
import { whichSecretSigned } from './signature';

export interface SigningKey {
  botId: number;
  secret: string;
}

export interface ReceiverOptions {
  host?: string;
  port?: number;
  /** Where the service POSTs; anything else answers 404. */
  path?: string;
  /** A lead is a few hundred bytes; anything past this is not one. */
  maxBodyBytes?: number;
  /** Connections at once (default RECEIVER_LIMITS.maxConnections). */
  maxConnections?: number;
  /** Per-address limits (default RECEIVER_LIMITS); 0 requests a minute turns the rate off. */
  peerLimits?: Partial<Pick<GuardLimits, 'maxPerPeer' | 'requestsPerPeerPerMinute' | 'limitLoopback'>>;
  store: LeadsStore;
  /** The signing secrets of the configured bots, read on each delivery (kept in memory by the caller). */
  keys: () => readonly SigningKey[];
  onLead: (lead: StoredLead) => void;
  log?: (line: string) => void;
}

export interface RunningReceiver {
  readonly url: string;
  readonly host: string;
  readonly port: number;
  readonly path: string;
  close(): Promise<void>;
}

export const DEFAULT_RECEIVER_PATH = '/webhooks/leads';

/**
 * The webhook endpoint. The order is the point: size limit, signature over the raw bytes, only
 * then JSON; a 2xx only once the lead is in SQLite (or was already), so the service's retries are
 * what recovers from any failure here.
 */
export function startLeadReceiver(options: ReceiverOptions): Promise<RunningReceiver> {
  const path = options.path ?? DEFAULT_RECEIVER_PATH;
  const limit = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const log = options.log ?? (() => {});

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (!guard.admit(req, res)) return;
    const url = new URL(req.url ?? '/', 'http://receiver');
    if (url.pathname !== path) return reply(res, 404, { ok: false, error: 'Not the lead webhook path.' });
    if (req.method !== 'POST') {
      res.setHeader('allow', 'POST');
      return reply(res, 405, { ok: false, error: 'The lead webhook accepts POST only.' });
    }
    const raw = await readBodyOr413(req, res, limit);
    if (raw === null) return;
    const header = req.headers[SIGNATURE_HEADER];
    const signer = whichSecretSigned(raw, Array.isArray(header) ? header[0] : header, options.keys());
    if (!signer) {
      log('lead webhook: signature missing or not matching any bot; answered 401');
      return reply(res, 401, {
        ok: false,
        error: 'The X-Service-Signature header is missing or does not match.',
      });
    }
    const parsed = parseLeadDelivery(raw.toString('utf8'));
    if (!parsed.ok) return replyNotALead(res, parsed);
    let result: ReturnType<LeadsStore['insert']>;
    try {
      result = options.store.insert(signer.botId, parsed.lead, raw.toString('utf8'));
    } catch (error) {
      // Not stored: a 5xx makes the service retry, so the lead is not lost.
      log(`lead webhook: could not store the lead: ${(error as Error).message}`);
      return reply(res, 503, { ok: false, error: 'The lead could not be stored right now; retry later.' });
    }
    reply(res, 200, { ok: true, duplicate: !result.stored });
    if (result.lead) {
      try {
        options.onLead(result.lead);
      } catch (error) {
        log(`lead webhook: a listener failed: ${(error as Error).message}`);
      }
    }
  }

  const server: Server = createServer(receiverServerOptions(), (req, res) => {
    handle(req, res).catch((error: unknown) => {
      log(`lead webhook: ${(error as Error).message}`);
      reply(res, 400, { ok: false, error: 'The request could not be read.' });
    });
  });
  const guard = guardConnections(server, {
    maxConnections: options.maxConnections ?? RECEIVER_LIMITS.maxConnections,
    maxPerPeer: RECEIVER_LIMITS.maxPerPeer,
    requestsPerPeerPerMinute: RECEIVER_LIMITS.requestsPerPeerPerMinute,
    ...options.peerLimits,
  });

  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => {
      server.off('error', reject);
      const address = server.address() as AddressInfo;
      const host = address.address.includes(':') ? `[${address.address}]` : address.address;
      resolve({
        url: `http://${host}:${address.port}${path}`,
        host: address.address,
        port: address.port,
        path,
        close: () =>
          new Promise<void>((done) => {
            server.close(() => done());
            server.closeIdleConnections();
          }),
      });
    });
  });
}
