import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

/**
 * Connection and rate limits for a server the internet reaches (the desktop lead receiver behind a
 * tunnel, the relay). Node's own `server.maxConnections` closes every new connection once full,
 * so 300 idle sockets from one process locked real requests out (the probe of issue 22). Here a
 * full server closes its oldest idle connection instead (one without a request in progress: kept
 * alive between requests, or connected and still sending headers), and refuses the newcomer only
 * when every connection is busy; a greedy peer meets its own cap first.
 *
 * Per-peer limits count the socket's remote address. A loopback peer is a local tunnel or reverse
 * proxy speaking for many clients, so by default it meets only the global cap: per-client limits
 * then belong in the proxy (docs/relay.md).
 */
export interface GuardLimits {
  /** Connections at once; past it the oldest idle one is closed, or the new one if none is idle. */
  maxConnections: number;
  /** Connections at once from one address. */
  maxPerPeer: number;
  /** Requests a minute from one address (a sliding minute); 0 turns it off. */
  requestsPerPeerPerMinute: number;
  /** Whether loopback peers meet the per-peer limits too (tests); default false. */
  limitLoopback?: boolean;
}

export interface GuardHooks {
  /**
   * Called when the server is full and no connection is idle: the server may free one that is busy
   * only with waiting (the relay answers its oldest long poll at once, and closes its connection).
   * True lets the newcomer in: it is over the cap until the freed connection has closed.
   */
  makeRoom?: () => boolean;
}

export interface ConnectionGuard {
  /** Call first in the request handler: false means a 429 was answered and the handler must stop. */
  admit(req: IncomingMessage, res: ServerResponse): boolean;
  /** The socket is taken for good (an upgraded WebSocket): busy until it closes, never closed to make room. */
  claim(socket: Socket): void;
  /** Its last request was one that may be cut first when room is needed (the relay's long polls). */
  expendable(socket: Socket): void;
  stats(): {
    open: number;
    idle: number;
    evicted: number;
    refused: number;
    limited: number;
    madeRoom: number;
  };
}

interface Tracked {
  peer: string;
  busy: number;
  /** What its requests were: `expendable` (said by the server, e.g. a long poll's) or not, or none yet. */
  kind: 'fresh' | 'expendable' | 'kept';
}

const WINDOW_MS = 60_000;
const isLoopback = (address: string) =>
  address === '::1' || address.startsWith('127.') || address.startsWith('::ffff:127.');

export function guardConnections(
  server: Server,
  limits: GuardLimits,
  now: () => number = Date.now,
  hooks: GuardHooks = {},
): ConnectionGuard {
  const sockets = new Map<Socket, Tracked>();
  // Idle sockets in the order they became idle: the first is the one to close.
  const idle = new Set<Socket>();
  const perPeer = new Map<string, Set<Socket>>();
  const hits = new Map<string, number[]>();
  const counts = { evicted: 0, refused: 0, limited: 0, madeRoom: 0 };
  const limited = (peer: string) => limits.limitLoopback === true || !isLoopback(peer);

  // Which idle connection goes first: one the server called expendable (the relay's answered long
  // polls: every desk has the read token, so polls are what a stranger floods with), then one that
  // has sent no request yet, then one that served others (a kept-alive delivery between two posts).
  const oldestIdle = (): Socket | null => {
    let fresh: Socket | null = null;
    let kept: Socket | null = null;
    for (const s of idle) {
      const kind = sockets.get(s)?.kind;
      if (kind === 'expendable') return s;
      if (kind === 'fresh') fresh ??= s;
      else kept ??= s;
    }
    return fresh ?? kept;
  };
  const evict = (s: Socket) => {
    counts.evicted++;
    forget(s);
    s.destroy();
  };
  const forget = (s: Socket) => {
    const t = sockets.get(s);
    if (!t) return;
    sockets.delete(s);
    idle.delete(s);
    const mine = perPeer.get(t.peer);
    mine?.delete(s);
    if (mine?.size === 0) perPeer.delete(t.peer);
  };

  server.on('connection', (socket: Socket) => {
    const peer = socket.remoteAddress ?? 'unknown';
    const mine = perPeer.get(peer);
    if (limited(peer) && mine && mine.size >= limits.maxPerPeer) {
      const victim = [...idle].find((s) => mine.has(s));
      if (!victim) {
        counts.refused++;
        socket.destroy();
        return;
      }
      evict(victim);
    }
    if (sockets.size >= limits.maxConnections) {
      const victim = oldestIdle();
      if (victim) evict(victim);
      else if (hooks.makeRoom?.()) counts.madeRoom++;
      else {
        counts.refused++;
        socket.destroy();
        return;
      }
    }
    sockets.set(socket, { peer, busy: 0, kind: 'fresh' });
    idle.add(socket);
    if (!perPeer.has(peer)) perPeer.set(peer, new Set());
    perPeer.get(peer)!.add(socket);
    socket.once('close', () => forget(socket));
  });

  // First of the request listeners: the server's handler may then call this request's socket expendable.
  server.prependListener('request', (req: IncomingMessage, res: ServerResponse) => {
    const socket = req.socket;
    const t = sockets.get(socket);
    if (!t) return;
    t.busy++;
    t.kind = 'kept';
    idle.delete(socket);
    res.once('close', () => {
      t.busy--;
      // Back at the end of the line: the most recently used connection is the last to be closed.
      if (t.busy === 0 && sockets.has(socket)) idle.add(socket);
    });
  });

  function overRate(peer: string): number | null {
    if (limits.requestsPerPeerPerMinute <= 0 || !limited(peer)) return null;
    const t = now();
    const mine = (hits.get(peer) ?? []).filter((at) => at > t - WINDOW_MS);
    if (mine.length >= limits.requestsPerPeerPerMinute) {
      hits.set(peer, mine);
      return Math.max(1, Math.ceil((mine[0]! + WINDOW_MS - t) / 1000));
    }
    mine.push(t);
    hits.set(peer, mine);
    // Peers gone quiet are forgotten, so the map stays as small as the busy minute's peers.
    if (hits.size > 10_000)
      for (const [p, list] of hits) if (list.every((at) => at <= t - WINDOW_MS)) hits.delete(p);
    return null;
  }

  return {
    admit(req, res) {
      const wait = overRate(req.socket.remoteAddress ?? 'unknown');
      if (wait === null) return true;
      counts.limited++;
      const body = JSON.stringify({
        ok: false,
        error: `Too many requests from this address; retry in ${wait} s.`,
      });
      res.writeHead(429, {
        'content-type': 'application/json',
        'content-length': Buffer.byteLength(body),
        'retry-after': String(wait),
      });
      res.end(body);
      return false;
    },
    expendable(socket) {
      const t = sockets.get(socket);
      if (t) t.kind = 'expendable';
    },
    claim(socket) {
      const t = sockets.get(socket);
      if (!t) return;
      t.busy++;
      idle.delete(socket);
    },
    stats: () => ({ open: sockets.size, idle: idle.size, ...counts }),
  };
}
