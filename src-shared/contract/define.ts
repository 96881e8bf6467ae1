import { z } from 'zod';

/**
 * The building blocks of the UI <-> core contract. A command is a request schema and a reply
 * schema; a reply travels inside a Result so that every failure is a value {code, message}.
 * Nothing here knows about a transport: Electron IPC and the headless WebSocket carry the same
 * shapes.
 */
export interface CommandDef<Req extends z.ZodType = z.ZodType, Rep extends z.ZodType = z.ZodType> {
  readonly request: Req;
  readonly reply: Rep;
}

export const command = <Req extends z.ZodType, Rep extends z.ZodType>(
  request: Req,
  reply: Rep,
): CommandDef<Req, Rep> => ({ request, reply });

export const AppErrorSchema = z.object({
  code: z.string(),
  message: z.string(),
  retryAt: z.number().optional(),
  status: z.number().optional(),
  field: z.string().optional(),
});

/** Data the UI can show while offline: the last copy from the server and when it was fetched. */
export const cached = <T extends z.ZodType>(value: T) =>
  z.object({
    value,
    /** Epoch ms of the fetch the value comes from; null when never fetched. */
    fetchedAt: z.number().nullable(),
    /** True when the last attempt to refresh failed and the value is the stored copy. */
    offline: z.boolean(),
    /** Why the refresh failed, when it did. */
    error: AppErrorSchema.nullable(),
  });

export const Empty = z.object({}).strict();
export const Done = z.object({ done: z.literal(true) });
