import type { AnyEvent, CoreApi } from '../../src-shared/contract';
import type { AppError, Result } from '../../src-shared/errors';
import { ServerMessageSchema, WS_PATH, WS_PROTOCOL } from '../../src-shared/transport/ws-messages';

export type LinkState = 'connecting' | 'open' | 'closed';

/**
 * The contract over the headless shell's WebSocket. Calls made while the socket is down wait for it
 * (up to a limit) instead of failing at once; a socket that drops reconnects with backoff, and
 * the UI hears about it through `onLink`.
 */
export function connectWsCore(origin: string, token: string, onLink: (s: LinkState) => void): CoreApi {
  const listeners = new Set<(e: AnyEvent) => void>();
  const pending = new Map<number, (r: Result<unknown, AppError>) => void>();
  const outbox: string[] = [];
  let nextId = 1;
  let socket: WebSocket | null = null;
  let retryMs = 250;

  const open = () => {
    onLink('connecting');
    const ws = new WebSocket(`${origin.replace(/^http/, 'ws')}${WS_PATH}`, [WS_PROTOCOL, `t.${token}`]);
    socket = ws;
    ws.onopen = () => {
      retryMs = 250;
      onLink('open');
      for (const m of outbox.splice(0)) ws.send(m);
    };
    ws.onmessage = (msg) => {
      const parsed = ServerMessageSchema.safeParse(JSON.parse(String(msg.data)));
      if (!parsed.success) return;
      const m = parsed.data;
      if (m.t === 'reply') {
        pending.get(m.id)?.(m.result as Result<unknown, AppError>);
        pending.delete(m.id);
      } else {
        for (const l of listeners) l({ event: m.event, payload: m.payload } as AnyEvent);
      }
    };
    ws.onclose = () => {
      socket = null;
      onLink('closed');
      // Calls in flight may or may not have run: say so rather than guess.
      for (const [id, settle] of pending) {
        settle({
          ok: false,
          error: { code: 'SHELL-DISCONNECTED', message: 'The connection to the app dropped; try again.' },
        });
        pending.delete(id);
      }
      setTimeout(open, retryMs);
      retryMs = Math.min(retryMs * 2, 5000);
    };
  };
  open();

  return {
    call(name, request) {
      const id = nextId++;
      const frame = JSON.stringify({ t: 'call', id, name, request });
      return new Promise((resolve) => {
        pending.set(id, resolve as (r: Result<unknown, AppError>) => void);
        if (socket?.readyState === WebSocket.OPEN) socket.send(frame);
        else outbox.push(frame);
      });
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
