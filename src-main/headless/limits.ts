import type { Server, ServerOptions } from 'node:http';

/**
 * How long a peer may take and how many may be connected at once. Anything on this machine can
 * connect, a web page too (`<img src="http://127.0.0.1:PORT/...">` needs no token), so a stalled or
 * dribbling peer is let go instead of holding a socket: headers (an upgrade's too) within 5 s,
 * checked every second (Node's default check runs every 30 s). A body may take long, since a
 * 200 MB drop can come through an SSH tunnel, but not stall: 15 s without a byte ends it, and the
 * whole request must be in within 10 minutes (200 MB at 350 KB/s). An open WebSocket is the page
 * itself and may idle (ws turns the socket timeout off).
 */
export const HEADLESS_LIMITS = {
  headersTimeoutMs: 5_000,
  requestTimeoutMs: 10 * 60_000,
  idleTimeoutMs: 15_000,
  checkEveryMs: 1_000,
  keepAliveTimeoutMs: 5_000,
  maxHeaderBytes: 16 * 1024,
  /**
   * A page needs a handful (six per host and its WebSocket); past this, new connections are closed
   * unread until the timeouts above free a place.
   */
  maxConnections: 256,
} as const;

export type HeadlessLimits = { -readonly [K in keyof typeof HEADLESS_LIMITS]: number };

export function headlessServerOptions(limits: HeadlessLimits): ServerOptions {
  return {
    headersTimeout: limits.headersTimeoutMs,
    requestTimeout: limits.requestTimeoutMs,
    connectionsCheckingInterval: limits.checkEveryMs,
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    maxHeaderSize: limits.maxHeaderBytes,
  };
}

/** What can only be set on the server once made. */
export function applyHeadlessLimits(server: Server, limits: HeadlessLimits): void {
  server.maxConnections = limits.maxConnections;
  // No 'timeout' listener: Node destroys a socket idle this long.
  server.timeout = limits.idleTimeoutMs;
}
