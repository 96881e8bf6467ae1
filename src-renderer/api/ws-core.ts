import type { AnyEvent, CoreApi } from '../../src-shared/contract';
import { type BackoffPolicy, backoffDelayMs } from '../../src-shared/domain/backoff';
import type { AppError, Result } from '../../src-shared/errors';
import { ServerMessageSchema, WS_PATH, WS_PROTOCOL } from '../../src-shared/transport/ws-messages';

export type LinkState = 'connecting' | 'open' | 'closed';

/** A dropped socket is opened again after about 0.25 s, 0.5 s, 1 s ... at most 5 s, jittered: many windows
 * of one app that lost it together do not knock together. The same delay function as the core's pacer. */
export const WS_RECONNECT_BACKOFF: BackoffPolicy = {
  baseMs: 250,
  capMs: 5_000,
  maxAttempts: Number.POSITIVE_INFINITY,
};

/** What the link runs on: the browser's, or a test's. */
export interface WsDeps {
  WebSocket: new (url: string, protocols: string[]) => WebSocket;
  setTimeout: (run: () => void, ms: number) => unknown;
  random: () => number;
}

const browser = (): WsDeps => ({
  WebSocket: globalThis.WebSocket,
  setTimeout: (run, ms) => globalThis.setTimeout(run, ms),
  random: Math.random,
});

/**
 * The contract over the headless shell's WebSocket. Calls made while the socket is down wait for it
 * (up to a limit) instead of failing at once; a socket that drops reconnects with backoff, and
 * the UI hears about it through `onLink`.
 */
export function connectWsCore(
  origin: string,
  token: string,
  onLink: (s: LinkState) => void,
  deps: WsDeps = browser(),
): CoreApi {
  const listeners = new Set<(e: AnyEvent) => void>();
  const pending = new Map<number, (r: Result<unknown, AppError>) => void>();
  const outbox: string[] = [];
  let nextId = 1;
  let socket: WebSocket | null = null;
  /** Drops since the socket was last open: the reconnect's attempt number. */
  let drops = 0;

  const open = () => {
    onLink('connecting');
    const ws = new deps.WebSocket(`${origin.replace(/^http/, 'ws')}${WS_PATH}`, [WS_PROTOCOL, `t.${token}`]);
    socket = ws;
    ws.onopen = () => {
      drops = 0;
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
      drops++;
      deps.setTimeout(open, backoffDelayMs(drops, WS_RECONNECT_BACKOFF, undefined, deps.random));
    };
  };
  open();

  return {
    call(name, request) {
      const id = nextId++;
      const frame = JSON.stringify({ t: 'call', id, name, request });
      return new Promise((resolve) => {
        pending.set(id, resolve as (r: Result<unknown, AppError>) => void);
        if (socket?.readyState === 1 /* WebSocket.OPEN */) socket.send(frame);
        else outbox.push(frame);
      });
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
