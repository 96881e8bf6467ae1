import type { z } from 'zod';
import {
  KB_ENTRIES_PATH,
  type KbEntry,
  KbEntryReplySchema,
  KbFailureSchema,
  KbListReplySchema,
  KbOkReplySchema,
} from '../../../src-shared/api/knowledge';
import { type AppError, appError, err, ok, type Result } from '../../../src-shared/errors';
import { httpJson } from '../service/http-json';
import { type Attempt, createPacer, done, type PacerBudget, retry } from '../service/pacer';
import { DEFAULT_RATE_LIMIT_WAIT_MS, KB_SYNC_BACKOFF, parseRetryAfter } from '../service/retry-policy';

/** What every call takes a token from before it goes out (the 60/min entry API budget), and tells of a 429. */
export type KbBudget = PacerBudget;

export interface KbClientOptions {
  baseUrl: string;
  token: string;
  budget: KbBudget;
  timeoutMs?: number;
  /** The time a 429's `retryAt` is on (kb/sync.ts gives a steady one; Date.now by default). */
  now?: () => number;
}

/** Codes the sync loop reacts to: retry later, stop and ask, conflict, or show the refusal. */
export const KB_ERRORS = {
  network: 'KB-NETWORK',
  unauthorized: 'KB-UNAUTHORIZED',
  notFound: 'KB-NOT-FOUND',
  refused: 'KB-REFUSED',
  rateLimited: 'KB-RATE-LIMITED',
  server: 'KB-SERVER-ERROR',
  badReply: 'KB-BAD-REPLY',
} as const;

export type KbEntryFields = { title?: string; description?: string };

export function createKbClient(options: KbClientOptions) {
  const base = options.baseUrl.replace(/\/+$/, '');
  const timeout = options.timeoutMs ?? 15_000;

  // One attempt per call: the sync loop retries a round (KB_SYNC_BACKOFF). The pacer takes the place in
  // the entry API's budget and tells it of a 429, which holds every bot of the address.
  const pacer = createPacer({ policy: { ...KB_SYNC_BACKOFF, maxAttempts: 1 }, budget: () => options.budget });

  async function call<S extends z.ZodType>(
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    path: string,
    schema: S,
    body?: unknown,
  ): Promise<Result<z.infer<S>>> {
    return pacer.call(() => send(method, path, schema, body));
  }

  async function send<S extends z.ZodType>(
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    path: string,
    schema: S,
    body?: unknown,
  ): Promise<Attempt<Result<z.infer<S>>>> {
    const res = await httpJson({
      url: `${base}${path}`,
      method,
      headers: { 'x-bot-token': options.token },
      ...(body === undefined ? {} : { json: body }),
      timeoutMs: timeout,
    });
    if (!res.ok)
      return done(
        err(
          appError(
            KB_ERRORS.network,
            `The bot's server at ${base} could not be reached (${res.error.reason}).`,
          ),
        ),
      );
    const { status, json } = res.value;
    if (status >= 200 && status < 300) {
      const parsed = schema.safeParse(json);
      if (parsed.success) return done(ok(parsed.data));
      return done(
        err(
          appError(
            KB_ERRORS.badReply,
            `The server's reply to ${method} ${path} is not what the API documents.`,
            {
              status,
            },
          ),
        ),
      );
    }
    const retryAfterMs = parseRetryAfter(res.value.headers['retry-after']);
    const refused = err(failure(status, json, retryAfterMs, options.now ?? Date.now));
    return status === 429 ? retry(refused, { rateLimited: true, retryAfterMs }) : done(refused);
  }

  return {
    list: async (): Promise<Result<KbEntry[]>> => {
      const r = await call('GET', KB_ENTRIES_PATH, KbListReplySchema);
      return r.ok ? ok(r.value.entries) : r;
    },
    create: async (fields: { title: string; description: string }): Promise<Result<KbEntry>> => {
      const r = await call('POST', KB_ENTRIES_PATH, KbEntryReplySchema, fields);
      return r.ok ? ok(r.value.entry) : r;
    },
    update: async (id: number, fields: KbEntryFields): Promise<Result<KbEntry>> => {
      const r = await call('PUT', `${KB_ENTRIES_PATH}/${id}`, KbEntryReplySchema, fields);
      return r.ok ? ok(r.value.entry) : r;
    },
    remove: async (id: number): Promise<Result<true>> => {
      const r = await call('DELETE', `${KB_ENTRIES_PATH}/${id}`, KbOkReplySchema);
      return r.ok ? ok(true as const) : r;
    },
  };
}

export type KbClient = ReturnType<typeof createKbClient>;

function failure(
  status: number,
  json: unknown,
  retryAfterMs: number | undefined,
  now: () => number,
): AppError {
  const parsed = KbFailureSchema.safeParse(json);
  const said = parsed.success ? parsed.data.error : undefined;
  if (status === 401)
    return appError(
      KB_ERRORS.unauthorized,
      "The bot token was refused (401). Paste the token again from the bot's KB API card.",
      { status },
    );
  if (status === 404)
    return appError(KB_ERRORS.notFound, said ?? 'The entry is not on the server (404).', { status });
  if (status === 422)
    return appError(KB_ERRORS.refused, said ?? 'The server refused the entry (422).', { status });
  if (status === 429) {
    const retryAt = now() + (retryAfterMs ?? DEFAULT_RATE_LIMIT_WAIT_MS);
    return appError(KB_ERRORS.rateLimited, 'The server asks to slow down (429); sync resumes by itself.', {
      status,
      retryAt,
    });
  }
  if (status >= 500)
    return appError(KB_ERRORS.server, `The server failed (${status}); sync retries later.`, { status });
  return appError(KB_ERRORS.refused, said ?? `The server answered ${status}.`, { status });
}
