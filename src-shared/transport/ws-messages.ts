import { z } from 'zod';
import { AppErrorSchema } from '../contract/define';

/**
 * The headless shell's WebSocket framing of the contract: the page sends calls with an id, the
 * core answers each id once, and pushes events without one. Electron IPC needs no framing.
 */
export const ClientMessageSchema = z.object({
  t: z.literal('call'),
  id: z.number().int().nonnegative(),
  name: z.string().max(100),
  request: z.unknown(),
});
export type ClientMessage = z.infer<typeof ClientMessageSchema>;

export const ServerMessageSchema = z.discriminatedUnion('t', [
  z.object({
    t: z.literal('reply'),
    id: z.number().int(),
    result: z.discriminatedUnion('ok', [
      z.object({ ok: z.literal(true), value: z.unknown() }),
      z.object({ ok: z.literal(false), error: AppErrorSchema }),
    ]),
  }),
  z.object({ t: z.literal('event'), event: z.string(), payload: z.unknown() }),
]);
export type ServerMessage = z.infer<typeof ServerMessageSchema>;

/** Path of the WebSocket and of the upload endpoint (files dropped on the page in a browser). */
export const WS_PATH = '/ws';
export const UPLOAD_PATH = '/upload';
export const TOKEN_HEADER = 'x-assets-token';
/** WebSocket pages cannot set headers: the token rides in the subprotocol list, after this marker. */
export const WS_PROTOCOL = 'assets-sync.v1';
