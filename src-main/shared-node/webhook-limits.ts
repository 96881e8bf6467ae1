import type { IncomingMessage, ServerOptions, ServerResponse } from 'node:http';

/**
 * The limits of a server that takes the service's webhook deliveries: the desktop lead receiver and
 * the relay keep the same ones. How long a peer may take and how many may be connected at once. The service waits 8 s for a reply
 * (knowledge-entry-api-and-webhook.md, section 6), so no legitimate delivery is slower than that, and
 * a stalled or dribbling peer is let go within it: headers within 4 s, the whole request within 7 s,
 * checked every second (Node checks these deadlines every 30 s unless told otherwise, which let a
 * stalled socket live ~24 s). A lead is a few hundred bytes, so headers stay small too.
 */
export const RECEIVER_LIMITS = {
  headersTimeoutMs: 4_000,
  requestTimeoutMs: 7_000,
  checkEveryMs: 1_000,
  /** An idle kept-alive connection between two deliveries. */
  keepAliveTimeoutMs: 5_000,
  maxHeaderBytes: 8 * 1024,
  /** Past this the oldest idle connection is closed (the new one only when all are busy). */
  maxConnections: 256,
  /** From one address (a loopback peer is the tunnel itself and meets only the cap above). */
  maxPerPeer: 32,
  /** Requests a minute from one address; the service retries a 429, so a burst is slowed, not lost. */
  requestsPerPeerPerMinute: 1_200,
} as const;

/** The `http.createServer` options that enforce the limits above. */
export function receiverServerOptions(): ServerOptions {
  return {
    headersTimeout: RECEIVER_LIMITS.headersTimeoutMs,
    requestTimeout: RECEIVER_LIMITS.requestTimeoutMs,
    connectionsCheckingInterval: RECEIVER_LIMITS.checkEveryMs,
    keepAliveTimeout: RECEIVER_LIMITS.keepAliveTimeoutMs,
    maxHeaderSize: RECEIVER_LIMITS.maxHeaderBytes,
  };
}

/** A lead is a few hundred bytes; anything past this is not one. */
export const DEFAULT_MAX_BODY_BYTES = 64 * 1024;

/** A JSON answer with its length (a webhook's client, and a proxy, read exactly that). */
export function replyJson(res: ServerResponse, status: number, body: Record<string, unknown>): void {
  replyJsonText(res, status, JSON.stringify(body));
}

/** The same with the body already encoded (an answer kept to be sent again). */
export function replyJsonText(res: ServerResponse, status: number, text: string): void {
  if (res.headersSent) return;
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

/** Reads the body as bytes, giving up (null) past the limit without buffering the rest. */
export function readBodyWithin(req: IncomingMessage, limit: number): Promise<Buffer | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        req.removeAllListeners('data');
        req.resume();
        resolve(null);
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
    // A peer cut off by the request timeout: settle, so nothing waits on a body that will not come.
    req.on('close', () => {
      if (!req.complete) reject(new Error('the connection closed before the body arrived'));
    });
  });
}

/** The declared size is over the limit. */
export function declaredTooLarge(req: IncomingMessage, limit: number): boolean {
  const declared = Number(req.headers['content-length']);
  return Number.isFinite(declared) && declared > limit;
}

/**
 * The body, or null once 413 was answered (declared or actual size over `limit`; the
 * connection closes, the rest is not read).
 */
export async function readBodyOr413(
  req: IncomingMessage,
  res: ServerResponse,
  limit: number,
): Promise<Buffer | null> {
  const raw = declaredTooLarge(req, limit) ? null : await readBodyWithin(req, limit);
  if (raw !== null) return raw;
  res.setHeader('connection', 'close');
  replyJson(res, 413, { ok: false, error: `The body is over ${limit} bytes.` });
  return null;
}

/**
 * A body that is no lead delivery: not JSON is 400, a field of the wrong shape is 422 and names it.
 * Both are refusals the service does not retry: the same bytes would be refused again.
 */
export function replyNotALead(
  res: ServerResponse,
  failure: { code: 'NOT-JSON' | 'SHAPE'; field: string | null; message: string },
): void {
  replyJson(res, failure.code === 'SHAPE' ? 422 : 400, {
    ok: false,
    error: failure.message,
    ...(failure.field ? { field: failure.field } : {}),
  });
}
