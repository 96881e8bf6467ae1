import type { IncomingHttpHeaders } from 'node:http';
import { Readable } from 'node:stream';
import { err, ok, type Result } from '../../../src-shared/errors';
import { poolFor } from './http-pool';

/**
 * One HTTP exchange for every undici caller of the core (the file API, the entry API, the sandbox's
 * admin surface, the service clock's probe): one request on the origin's pooled connections, the
 * reply read whole, its JSON parsed when it is JSON, and one mapping of what went wrong below HTTP.
 * Statuses and bodies are the caller's: each API has its own envelope and codes.
 */
export interface HttpJsonRequest {
  /** The address (`http://127.0.0.1:4000/base`): its origin picks the pool, its path prefixes `path`. */
  url: string;
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  headers?: Record<string, string>;
  /** Sent as `application/json`. */
  json?: unknown;
  /** A body as it is (a string, or a stream such as an upload's multipart). Not with `json`. */
  body?: string | AsyncIterable<Uint8Array>;
  signal?: AbortSignal | undefined;
  /** The whole call's limit (default 30 s); a caller that passes `watchdog` runs its own. */
  timeoutMs?: number;
  /** An idle limit the caller kicks on each sign of progress (an upload's chunks). */
  watchdog?: Watchdog;
  /** Called once the reply's status is known, before its body is read. */
  onStatus?: (status: number) => void;
}

export interface HttpJsonReply {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
  /** The body parsed as JSON; undefined when it is not JSON. */
  json: unknown;
}

/**
 * No HTTP answer, in the codes the app already uses (docs/service-client.md): `ABORTED` (the caller's
 * signal), `TIMEOUT` (the watchdog, or a connect/headers/body timeout below it), `NETWORK` (refused,
 * reset, DNS, anything else of the socket). `reason` is the short cause (ECONNREFUSED, ENOTFOUND,
 * timeout, aborted); `cause` the error itself, for a caller that looks for its own (an upload's
 * FILE-CHANGED).
 */
export interface TransportError {
  code: 'NETWORK' | 'TIMEOUT' | 'ABORTED';
  message: string;
  reason: string;
  cause: unknown;
}

export const DEFAULT_HTTP_TIMEOUT_MS = 30_000;

const TIMEOUT_CODES = new Set([
  'ETIMEDOUT',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
]);

export async function httpJson(req: HttpJsonRequest): Promise<Result<HttpJsonReply, TransportError>> {
  const url = new URL(req.url);
  const watchdog = req.watchdog ?? new Watchdog(req.timeoutMs ?? DEFAULT_HTTP_TIMEOUT_MS);
  watchdog.start();
  const signal = req.signal ? AbortSignal.any([req.signal, watchdog.signal]) : watchdog.signal;
  const body = req.json !== undefined ? JSON.stringify(req.json) : req.body;
  const headers = {
    accept: 'application/json',
    ...(req.json !== undefined ? { 'content-type': 'application/json' } : {}),
    ...req.headers,
  };
  try {
    const pool = await poolFor(url.origin);
    const reply = await pool.request({
      method: req.method,
      path: `${url.pathname}${url.search}`,
      headers,
      body: typeof body === 'object' ? Readable.from(body, { highWaterMark: 1 }) : (body ?? null),
      signal,
    });
    watchdog.kick();
    req.onStatus?.(reply.statusCode);
    const text = await reply.body.text();
    return ok({ status: reply.statusCode, headers: reply.headers, text, json: parseJson(text) });
  } catch (e) {
    return err(transportError(e, req.signal, watchdog));
  } finally {
    watchdog.stop();
  }
}

/** The one mapping of a failure below HTTP to the app's codes. */
export function transportError(
  e: unknown,
  callerSignal: AbortSignal | undefined,
  watchdog?: Watchdog,
): TransportError {
  if (callerSignal?.aborted) return { code: 'ABORTED', message: '', reason: 'aborted', cause: e };
  if (watchdog?.fired)
    return {
      code: 'TIMEOUT',
      message: `No progress for ${watchdog.ms / 1000} s.`,
      reason: 'timeout',
      cause: e,
    };
  const inner = innermost(e);
  // undici's messages name the socket problem, never the request's headers, so a key cannot leak here.
  const code = (inner as { code?: unknown }).code;
  const text = inner instanceof Error ? inner.message : String(inner);
  const reason = typeof code === 'string' ? code : inner instanceof Error ? inner.name : 'unknown';
  const message = typeof code === 'string' ? `${code}: ${text}` : text;
  return {
    code: typeof code === 'string' && TIMEOUT_CODES.has(code) ? 'TIMEOUT' : 'NETWORK',
    message,
    reason,
    cause: e,
  };
}

/** The error that names the socket's problem: undici wraps it (`fetch failed` -> ECONNREFUSED). */
function innermost(e: unknown): unknown {
  let cur = e;
  for (let i = 0; i < 5; i++) {
    if (!(cur instanceof Error) || typeof (cur as { code?: unknown }).code === 'string' || !cur.cause) break;
    cur = cur.cause;
  }
  return cur;
}

export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** Aborts when nothing happened for `ms`; `kick()` on each sign of progress. */
export class Watchdog {
  private readonly controller = new AbortController();
  private timer: ReturnType<typeof setTimeout> | null = null;
  private running = false;
  fired = false;
  constructor(readonly ms: number) {}
  get signal(): AbortSignal {
    return this.controller.signal;
  }
  start(): void {
    this.running = true;
    this.kick();
  }
  kick(): void {
    if (!this.running) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.fired = true;
      this.controller.abort(new Error('timeout'));
    }, this.ms);
  }
  stop(): void {
    this.running = false;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }
}
