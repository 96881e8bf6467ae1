import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocket, WebSocketServer } from 'ws';
import type { AnyEvent } from '../../src-shared/contract';
import type { AppError, Result } from '../../src-shared/errors';
import { ClientMessageSchema, type ServerMessage, WS_PROTOCOL } from '../../src-shared/transport/ws-messages';
import type { CoreEndpoint } from './core-endpoint';

/**
 * Carries contract calls and events over WebSocket. Each socket gets every event; a slow socket
 * (more than 4 MB buffered) is closed rather than letting memory grow.
 */
export function createWsBridge(core: CoreEndpoint) {
  const wss = new WebSocketServer({
    noServer: true,
    maxPayload: 1024 * 1024,
    handleProtocols: (protocols) => (protocols.has(WS_PROTOCOL) ? WS_PROTOCOL : false),
  });
  const send = (ws: WebSocket, message: ServerMessage) => {
    if (ws.readyState !== WebSocket.OPEN) return;
    if (ws.bufferedAmount > 4 * 1024 * 1024) return ws.close(1013, 'too slow');
    ws.send(JSON.stringify(message));
  };

  wss.on('connection', (ws) => {
    const unsubscribe = core.subscribe((e: AnyEvent) =>
      send(ws, { t: 'event', event: e.event, payload: e.payload }),
    );
    ws.on('close', unsubscribe);
    // A frame over maxPayload, invalid UTF-8, a bad opcode: ws has already sent the close code
    // (1009, 1007, 1002) and closes the socket itself; without a listener the error would end the app.
    ws.on('error', () => {});
    ws.on('message', async (data, isBinary) => {
      if (isBinary) return ws.close(1003, 'text frames only');
      let parsed: ReturnType<typeof ClientMessageSchema.safeParse>;
      try {
        parsed = ClientMessageSchema.safeParse(JSON.parse(String(data)));
      } catch {
        return ws.close(1007, 'malformed JSON');
      }
      if (!parsed.success) return ws.close(1007, 'not a contract call');
      const { id, name, request } = parsed.data;
      const result = await core.call(name, request).catch(
        (error: unknown): Result<unknown, AppError> => ({
          ok: false,
          error: { code: 'INTERNAL', message: error instanceof Error ? error.message : String(error) },
        }),
      );
      send(ws, { t: 'reply', id, result });
    });
  });

  return {
    upgrade(req: IncomingMessage, socket: Duplex, head: Buffer) {
      wss.handleUpgrade(req, socket, head, (ws) => wss.emit('connection', ws, req));
    },
    close(): Promise<void> {
      for (const ws of wss.clients) ws.terminate();
      return new Promise((resolve) => wss.close(() => resolve()));
    },
  };
}
