// Over 400 lines on purpose: one method per endpoint of the file-hosting API, each a few lines over the
// shared `call` (the pacer, the HTTP helper, envelope parsing); splitting the methods apart would spread
// one document's table over several files.
import type { FileHandle } from 'node:fs/promises';
import { basename } from 'node:path';
import type { z } from 'zod';
import {
  type Account,
  AccountSchema,
  DeleteReplySchema,
  dataEnvelope,
  FailureEnvelopeSchema,
  FILE_API_BASE_PATH,
  type ListMeta,
  ListMetaSchema,
  listEnvelope,
  type RemoteFile,
  RemoteFileSchema,
  UsageMetaSchema,
  type UsageSnapshot,
  UsageSnapshotSchema,
} from '../../../src-shared/api/file-hosting';
import { PER_PAGE_MAX } from '../../../src-shared/domain/limits';
import { err, ok, type Result } from '../../../src-shared/errors';
import { type ApiError, ApiFailure, apiError } from './api-error';
import { DEFAULT_HTTP_TIMEOUT_MS, type HttpJsonReply, httpJson, Watchdog } from './http-json';
import { FileChangedError, multipartBody, type Pace } from './multipart-body';
import { createPacer, retryOnApiError } from './pacer';
import { type BudgetHold, budgetFor, type Lane, type RequestBudget } from './request-budget';
import { CALL_BACKOFF, parseRetryAfter } from './retry-policy';

/**
 * The lane of the request budget a call waits in (request-budget.ts). Each method has a default:
 * uploads and deletes 'sync' (the engine's work, first), the rest 'user'; a caller says otherwise
 * (the remote index's walk: 'background'; a delete from the Files view: 'user').
 */
export interface LaneOption {
  lane?: Lane;
}

export interface FileApiClient {
  readonly baseUrl: string;
  /** The request budget's rate (0: unlimited): the sync engine's ETA counts requests with it. */
  readonly requestsPerMinute?: number;
  /** What holds every request of this address now (a 429's Retry-After), for how long more: the budget's. */
  budgetHold?(): BudgetHold | null;
  /** Told once a 429 this client got has set the budget's hold (the app then says it); returns the undo. */
  onBudgetHold?(listener: () => void): () => void;
  me(o?: LaneOption): Promise<Result<Account, ApiError>>;
  listFiles(
    q?: {
      bucket?: string;
      page?: number;
      perPage?: number;
      signal?: AbortSignal;
    } & LaneOption,
  ): Promise<Result<{ files: RemoteFile[]; meta: ListMeta }, ApiError>>;
  /** Every live file, in pages of 100; throws ApiFailure (an iterable cannot return a Result). */
  listAllFiles(q?: { bucket?: string } & LaneOption): AsyncIterable<RemoteFile>;
  getFile(id: number, o?: LaneOption): Promise<Result<RemoteFile, ApiError>>;
  deleteFile(
    id: number,
    /** `signal`: a bulk delete stopped while this one waits for its place in the budget. */
    o?: LaneOption & { signal?: AbortSignal },
  ): Promise<Result<{ id: number; status: 'ACTIVE' | 'DELETED' }, ApiError>>;
  /** Streamed multipart from disk with the md5 in `hash`; never retried here (the journal decides). */
  uploadFile(input: {
    path: string;
    /** The file opened (and checked) by the caller: read from it instead of opening `path`. */
    handle?: FileHandle;
    size: number;
    name: string;
    bucket?: string;
    md5?: string;
    /**
     * Instead of `md5`: the bytes are hashed as they are read and the md5 sent in `hash` after the file
     * part (the service reads fields on either side of the file). This is told that md5 first, once
     * every byte was read; its rejection fails the upload (FILE-CHANGED) before the md5 leaves.
     */
    hashWhileSending?: (md5: string) => Promise<void>;
    signal?: AbortSignal;
    onProgress?: (sentBytes: number) => void;
    /** The upload rate limit the file's bytes wait for (shared by the uploads of an engine). */
    pace?: Pace;
    lane?: Lane;
    /** Ahead of the other uploads waiting for the request budget (a file just dropped, "Upload now"). */
    first?: boolean;
  }): Promise<Result<RemoteFile, ApiError>>;
  uploadFromUrl(input: {
    sourceUrl: string;
    bucket?: string;
    md5?: string;
    signal?: AbortSignal;
    lane?: Lane;
  }): Promise<Result<RemoteFile, ApiError>>;
  usage(
    days?: number,
    o?: LaneOption,
  ): Promise<Result<{ snapshots: UsageSnapshot[]; days: number; count: number }, ApiError>>;
}

/**
 * What a reply showed about the account's files, for whoever keeps a copy of them (the remote index):
 * the account /me answered for, a file live (uploaded, or read), a file gone (deleted, or a 410).
 */
export type RemoteEvent =
  | { kind: 'account'; clientId: number; account?: Account }
  | { kind: 'live'; file: RemoteFile }
  | { kind: 'gone'; id: number };

/** What a reply showed, in words: "file 12 (a.pdf) live", "file 12 gone", "account of client 3". */
export function remoteEventText(event: RemoteEvent): string {
  if (event.kind === 'account') return `account of client ${event.clientId}`;
  if (event.kind === 'live') return `file ${event.file.id} (${event.file.name}) live`;
  return `file ${event.id} gone`;
}

const remoteListenerFailed = (event: RemoteEvent, e: unknown) =>
  process.stderr.write(
    `assets-sync: what a reply showed (${remoteEventText(event)}) was not taken: ${e instanceof Error ? e.message : String(e)}\n`,
  );

export interface FileApiClientOptions {
  baseUrl: string;
  apiKey: string;
  /** Defaults to the shared budget of this address (budgetFor(baseUrl, 'files')). */
  budget?: RequestBudget;
  /** Whole-request limit for calls, and the idle limit (no byte sent or received) for uploads. */
  timeoutMs?: number;
  /** Called once per request actually sent (after the budget granted it), retries included. */
  onRequest?: (method: string, path: string, lane: Lane) => void;
  /** Called once per HTTP reply received, with its status (benchmarks count 429s with it). */
  onReply?: (method: string, path: string, status: number) => void;
  /** Called after each reply that shows a file live or gone (never for listing pages). */
  onRemote?: (event: RemoteEvent) => void;
  /**
   * `onRemote` threw (its database busy, say): the call's result stands, and this says so with the
   * event (default: one line on standard error). Never rethrown: it ended the process.
   */
  onRemoteError?: (event: RemoteEvent, error: unknown) => void;
  /** Extra attempts for idempotent calls (GET, DELETE) whose reaction is `retry`. Default 2. */
  retries?: number;
}

const AccountReply = dataEnvelope(AccountSchema);
const FileReply = dataEnvelope(RemoteFileSchema);
const ListReply = listEnvelope(RemoteFileSchema, ListMetaSchema);
const UsageReply = listEnvelope(UsageSnapshotSchema, UsageMetaSchema);
const DeleteReply = dataEnvelope(DeleteReplySchema);

interface Call<S extends z.ZodType> {
  method: 'GET' | 'POST' | 'DELETE';
  path: string;
  query?: Record<string, string | number | undefined>;
  headers?: Record<string, string>;
  body?: string | AsyncIterable<Uint8Array>;
  reply: S;
  signal?: AbortSignal | undefined;
  lane: Lane;
  /** Ahead of the lane's other waiters in the budget. */
  first?: boolean;
  /** Reset the idle timer from outside (each chunk of an upload). */
  watchdog?: Watchdog;
}

export function createFileApiClient(opts: FileApiClientOptions): FileApiClient {
  const base = new URL(opts.baseUrl);
  if (base.protocol !== 'http:' && base.protocol !== 'https:') {
    throw new TypeError(`The service address must be http or https, not ${base.protocol}`);
  }
  const baseUrl = opts.baseUrl.replace(/\/+$/, '');
  const prefix = `${base.pathname.replace(/\/+$/, '')}${FILE_API_BASE_PATH}`;
  const timeoutMs = opts.timeoutMs ?? DEFAULT_HTTP_TIMEOUT_MS;
  const retries = opts.retries ?? 2;
  const authorization = `Bearer ${opts.apiKey}`;
  const tell = (event: RemoteEvent) => {
    // A listener's failure is its own: the call's result stands.
    try {
      opts.onRemote?.(event);
    } catch (e) {
      try {
        (opts.onRemoteError ?? remoteListenerFailed)(event, e);
      } catch {
        // Nothing more can be said.
      }
    }
  };

  const holdListeners = new Set<() => void>();
  const pacer = createPacer({
    policy: { ...CALL_BACKOFF, maxAttempts: retries + 1 },
    // Asked per attempt, never kept: a budget leased for this address may replace the shared one.
    budget: () => {
      const b = opts.budget ?? budgetFor(baseUrl, 'files');
      return {
        take: (...a: Parameters<RequestBudget['take']>) => b.take(...a),
        rateLimited(ms: number | undefined) {
          b.rateLimited(ms);
          // The hold is the budget's now: whoever says it is told (a listener's throw is its own).
          for (const l of holdListeners)
            try {
              l();
            } catch {
              // Nothing more can be said here; the hold stands.
            }
        },
      };
    },
  });

  /** One request once its place in the budget is granted (the pacer takes it). */
  async function once<S extends z.ZodType>(call: Call<S>): Promise<Result<z.infer<S>, ApiError>> {
    opts.onRequest?.(call.method, FILE_API_BASE_PATH + call.path, call.lane);
    const r = await httpJson({
      url: `${base.origin}${prefix}${call.path}${queryString(call.query)}`,
      method: call.method,
      headers: { authorization, ...call.headers },
      ...(call.body !== undefined ? { body: call.body } : {}),
      signal: call.signal,
      timeoutMs,
      ...(call.watchdog ? { watchdog: call.watchdog } : {}),
      onStatus: (status) => {
        // Any reply but a 429 (the pacer's, rateLimited) tells the budget: AIMD's clean periods, a probe answered.
        if (status !== 429) (opts.budget ?? budgetFor(baseUrl, 'files')).replied(status);
        opts.onReply?.(call.method, FILE_API_BASE_PATH + call.path, status);
      },
    });
    if (!r.ok) {
      // The upload body's own failure: the file changed while it was read.
      if (findCause(r.error.cause) instanceof FileChangedError)
        return err(apiError('FILE-CHANGED', undefined));
      return err(apiError(r.error.code, r.error.message || undefined));
    }
    return readReply(r.value.status, r.value.headers, r.value.json, call.reply);
  }

  function readReply<S extends z.ZodType>(
    status: number,
    headers: HttpJsonReply['headers'],
    json: unknown,
    schema: S,
  ): Result<z.infer<S>, ApiError> {
    if (status >= 200 && status < 300) {
      const parsed = schema.safeParse(json);
      if (parsed.success) return ok(parsed.data);
      const issue = parsed.error.issues[0];
      const where = issue ? `${issue.path.join('.') || 'reply'}: ${issue.message}` : 'unreadable JSON';
      return err(apiError('BAD-REPLY', `HTTP ${status}, ${where}.`, { status }));
    }
    // A 429's deferral of the budget is the pacer's (retryOnApiError marks it), for uploads too.
    const retryAfterMs = parseRetryAfter(headers['retry-after']);
    const failure = FailureEnvelopeSchema.safeParse(json);
    const extra = { status, ...(retryAfterMs !== undefined ? { retryAfterMs } : {}) };
    if (failure.success) return err(apiError(failure.data.code, failure.data.errors.join('; '), extra));
    return err(apiError(`HTTP-${status}`, undefined, extra));
  }

  /**
   * Every call goes through the pacer: its place in the budget, the 429 told to the budget, and for
   * idempotent calls the retries of a `retry` reaction with backoff and jitter. Uploads (POST) get one
   * attempt: whether to send again is the journal's call.
   */
  async function call<S extends z.ZodType>(
    c: Call<S>,
    idempotent: boolean,
  ): Promise<Result<z.infer<S>, ApiError>> {
    try {
      return await pacer.call(async () => retryOnApiError(await once(c)), {
        signal: c.signal,
        lane: c.lane,
        first: c.first,
        ...(idempotent ? {} : { maxAttempts: 1 }),
      });
    } catch (e) {
      if (c.signal?.aborted) return err(apiError('ABORTED', 'It was cancelled while waiting to be sent.'));
      throw e;
    }
  }

  const client: FileApiClient = {
    baseUrl,
    get requestsPerMinute() {
      return (opts.budget ?? budgetFor(baseUrl, 'files')).perMinute;
    },
    budgetHold: () => (opts.budget ?? budgetFor(baseUrl, 'files')).hold(),
    onBudgetHold(listener) {
      holdListeners.add(listener);
      return () => holdListeners.delete(listener);
    },
    async me(o = {}) {
      const r = await call({ method: 'GET', path: '/me', reply: AccountReply, lane: o.lane ?? 'user' }, true);
      if (r.ok) tell({ kind: 'account', clientId: r.value.data.client.id, account: r.value.data });
      return r.ok ? ok(r.value.data) : r;
    },
    async listFiles(q = {}) {
      const r = await call(
        {
          method: 'GET',
          path: '/files',
          query: { bucket: q.bucket, page: q.page, per_page: q.perPage },
          reply: ListReply,
          signal: q.signal,
          lane: q.lane ?? 'user',
        },
        true,
      );
      return r.ok ? ok({ files: r.value.data, meta: r.value.meta }) : r;
    },
    async *listAllFiles(q = {}) {
      // Newest first: a file uploaded meanwhile shifts later pages by one; ids already seen are skipped.
      const seen = new Set<number>();
      for (let page = 1; ; page++) {
        const r = await client.listFiles({
          ...(q.bucket !== undefined ? { bucket: q.bucket } : {}),
          ...(q.lane !== undefined ? { lane: q.lane } : {}),
          page,
          perPage: PER_PAGE_MAX,
        });
        if (!r.ok) throw new ApiFailure(r.error);
        for (const f of r.value.files) {
          if (seen.has(f.id)) continue;
          seen.add(f.id);
          yield f;
        }
        if (page >= r.value.meta.last_page || r.value.files.length === 0) return;
      }
    },
    async getFile(id, o = {}) {
      const r = await call(
        { method: 'GET', path: `/files/${fileId(id)}`, reply: FileReply, lane: o.lane ?? 'user' },
        true,
      );
      if (r.ok) tell({ kind: 'live', file: r.value.data });
      else if (r.error.code === 'GONE') tell({ kind: 'gone', id });
      return r.ok ? ok(r.value.data) : r;
    },
    async deleteFile(id, o = {}) {
      const r = await call(
        {
          method: 'DELETE',
          path: `/files/${fileId(id)}`,
          reply: DeleteReply,
          lane: o.lane ?? 'sync',
          signal: o.signal,
        },
        true,
      );
      if (r.ok || r.error.code === 'GONE') tell({ kind: 'gone', id });
      return r.ok ? ok(r.value.data) : r;
    },
    async uploadFile(input) {
      const fields: [string, string][] = [];
      if (input.bucket !== undefined) fields.push(['bucket', input.bucket]);
      fields.push(['name', input.name]);
      if (input.md5 !== undefined) fields.push(['hash', input.md5]);
      const body = multipartBody(
        fields,
        {
          path: input.path,
          size: input.size,
          filename: basename(input.name),
          ...(input.handle ? { handle: input.handle } : {}),
          // The service checks the bytes against the md5 sent with them: see MultipartFile.recycle.
          recycle: input.md5 !== undefined || input.hashWhileSending !== undefined,
        },
        input.md5 === undefined && input.hashWhileSending
          ? { field: 'hash', confirm: input.hashWhileSending }
          : undefined,
      );
      const watchdog = new Watchdog(timeoutMs);
      const r = await call(
        {
          method: 'POST',
          path: '/files',
          headers: { 'content-type': body.contentType, 'content-length': String(body.contentLength) },
          body: body.stream(
            (sent) => {
              watchdog.kick();
              input.onProgress?.(sent);
            },
            input.pace && { ...input.pace, ...(input.signal ? { signal: input.signal } : {}) },
          ),
          reply: FileReply,
          signal: input.signal,
          lane: input.lane ?? 'sync',
          ...(input.first ? { first: true } : {}),
          watchdog,
        },
        false,
      );
      if (r.ok) tell({ kind: 'live', file: r.value.data });
      return r.ok ? ok(r.value.data) : r;
    },
    async uploadFromUrl(input) {
      const payload: Record<string, string> = { source_url: input.sourceUrl };
      if (input.bucket !== undefined) payload.bucket = input.bucket;
      if (input.md5 !== undefined) payload.hash = input.md5;
      const r = await call(
        {
          method: 'POST',
          path: '/files',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(payload),
          reply: FileReply,
          signal: input.signal,
          lane: input.lane ?? 'sync',
        },
        false,
      );
      if (r.ok) tell({ kind: 'live', file: r.value.data });
      return r.ok ? ok(r.value.data) : r;
    },
    async usage(days, o = {}) {
      const r = await call(
        { method: 'GET', path: '/usage', query: { days }, reply: UsageReply, lane: o.lane ?? 'user' },
        true,
      );
      return r.ok ? ok({ snapshots: r.value.data, days: r.value.meta.days, count: r.value.meta.count }) : r;
    },
  };
  return client;
}

function findCause(e: unknown): unknown {
  let cur = e;
  for (let i = 0; i < 5 && cur instanceof Error; i++) {
    if (cur instanceof FileChangedError) return cur;
    if (!cur.cause) break;
    cur = cur.cause;
  }
  return cur instanceof FileChangedError ? cur : e;
}

function queryString(q: Record<string, string | number | undefined> | undefined): string {
  if (!q) return '';
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(q)) if (v !== undefined) params.set(k, String(v));
  const s = params.toString();
  return s ? `?${s}` : '';
}

function fileId(id: number): string {
  // A non-integer id would otherwise reach the server as a path segment such as "1.5" or "NaN".
  if (!Number.isSafeInteger(id)) throw new RangeError(`A file id is a whole number, got ${id}`);
  return String(id);
}
