import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { resolve } from 'node:path';
import type { Duplex } from 'node:stream';
import { TOKEN_HEADER, UPLOAD_PATH, WS_PATH, WS_PROTOCOL } from '../../src-shared/transport/ws-messages';
import type { ConnectionGuard } from '../shared-node/connection-guard';
import { checkRequest, newToken } from './access';
import type { CoreEndpoint } from './core-endpoint';
import { applyHeadlessLimits, HEADLESS_LIMITS, type HeadlessLimits, headlessServerOptions } from './limits';
import { plain, serveStatic } from './static-files';
import { handleUpload } from './upload-route';
import { createWsBridge } from './ws-bridge';

export interface HeadlessShellOptions {
  core: CoreEndpoint;
  /** The vite build output (out/renderer). */
  rendererDir: string;
  /** Where files dropped on the page are kept until they are live. */
  dropDir: string;
  port?: number;
  token?: string;
  /** Tests tighten these; the defaults are HEADLESS_LIMITS. */
  limits?: Partial<HeadlessLimits>;
}

export interface HeadlessShell {
  /** The address to open, with the token in the fragment (never sent to a server or a log). */
  readonly url: string;
  readonly origin: string;
  readonly token: string;
  /** What the connection guard holds now (open, idle, evicted, refused): for diagnostics and tests. */
  connections(): ReturnType<ConnectionGuard['stats']>;
  close(): Promise<void>;
}

/** Serves the renderer and the contract on 127.0.0.1 only: nothing else on the network can reach it. */
export async function startHeadlessShell(options: HeadlessShellOptions): Promise<HeadlessShell> {
  const token = options.token ?? newToken();
  const root = resolve(options.rendererDir);
  const bridge = createWsBridge(options.core);
  let origin = '';

  const limits: HeadlessLimits = { ...HEADLESS_LIMITS, ...options.limits };
  const server = createServer(headlessServerOptions(limits), (req, res) => {
    const url = targetOf(req, origin);
    if (!url) return plain(res, 400, 'The request target is not a path.');
    if (url.pathname === UPLOAD_PATH) {
      if (req.method !== 'POST') return plain(res, 405, 'POST only');
      const access = checkRequest(req, origin, token, headerValue(req.headers[TOKEN_HEADER]));
      if (!access.ok) return plain(res, access.status, access.reason);
      handleUpload(req, res, url, options.dropDir, options.core).catch(() => {
        if (!res.headersSent) plain(res, 400, 'The upload could not be read.');
      });
      return;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') return plain(res, 405, 'GET only');
    if (req.headers.host !== new URL(origin).host) return plain(res, 421, 'wrong Host header');
    serveStatic(root, origin, url, req, res);
  });

  const guard = applyHeadlessLimits(server, limits);

  server.on('upgrade', (req, socket, head) => {
    // Node takes its own error listener off an upgraded socket: a reset before ws adopts it (or
    // while a refusal is written) would otherwise be an uncaught error, the end of the app.
    socket.on('error', () => socket.destroy());
    const url = targetOf(req, origin);
    if (!url) return refuseUpgrade(socket, 400, 'Bad Request');
    const offered = String(req.headers['sec-websocket-protocol'] ?? '')
      .split(',')
      .map((p) => p.trim());
    const given = offered.find((p) => p.startsWith('t.'))?.slice(2) ?? null;
    const access =
      url.pathname === WS_PATH && offered.includes(WS_PROTOCOL)
        ? checkRequest(req, origin, token, given)
        : ({ ok: false, status: 404, reason: 'no such socket' } as const);
    if (!access.ok) return refuseUpgrade(socket, access.status, 'Refused');
    // The page's own socket: busy for as long as it is open, never closed to make room.
    guard.claim(socket as Socket);
    bridge.upgrade(req, socket, head);
  });

  await new Promise<void>((ok, fail) => {
    server.once('error', fail);
    server.listen(options.port ?? 0, '127.0.0.1', () => ok());
  });
  const { port } = server.address() as AddressInfo;
  origin = `http://127.0.0.1:${port}`;

  return {
    url: `${origin}/#token=${token}`,
    origin,
    token,
    connections: () => guard.stats(),
    async close() {
      await bridge.close();
      server.closeAllConnections();
      await new Promise<void>((ok) => server.close(() => ok()));
    },
  };
}

/** The request target as a URL, or null when it is none (`//[`, `http://[`): a 400, never a throw. */
function targetOf(req: IncomingMessage, origin: string): URL | null {
  try {
    return new URL(req.url ?? '/', origin);
  } catch {
    return null;
  }
}

/** Answers an upgrade that will not happen, then lets go of the socket whatever the peer does. */
function refuseUpgrade(socket: Duplex, status: number, reason: string): void {
  socket.end(`HTTP/1.1 ${status} ${reason}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`, () =>
    socket.destroy(),
  );
}

const headerValue = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v) ?? null;
