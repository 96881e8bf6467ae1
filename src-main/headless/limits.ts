import type { Server, ServerOptions } from 'node:http';
import { type ConnectionGuard, guardConnections } from '../shared-node/connection-guard';

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
   * A page needs a handful (six per host and its WebSocket); past this the oldest idle connection is
   * closed for the newcomer (the connection guard of shared-node, as the relay's), and the newcomer
   * only when every one is busy. An open WebSocket is never the one closed.
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

/**
 * What can only be set on the server once made. Not `server.maxConnections`: Node closes every new
 * connection once it is reached, so 300 slow or 2,000 idle sockets from anything on this machine
 * locked the page out until the timeouts freed a place (issue 32).
 */
export function applyHeadlessLimits(server: Server, limits: HeadlessLimits): ConnectionGuard {
  // No 'timeout' listener: Node destroys a socket idle this long.
  server.timeout = limits.idleTimeoutMs;
  // Every peer is on this machine (127.0.0.1 only): the cap is the whole limit, no per-address one.
  return guardConnections(server, {
    maxConnections: limits.maxConnections,
    maxPerPeer: limits.maxConnections,
    requestsPerPeerPerMinute: 0,
  });
}
