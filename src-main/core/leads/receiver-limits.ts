import type { ServerOptions } from 'node:http';

/**
 * How long a peer may take and how many may be connected at once. The service waits 8 s for a reply
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
