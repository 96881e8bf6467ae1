import { readFileSync } from 'node:fs';
import { hideCredentialsInText, hideUrlCredentials } from '../../../src-shared/domain/url-credentials';
import { type AppError, appError, err, ok, type Result } from '../../../src-shared/errors';
import type { Clock } from '../service/clock';
import type { FileApiClient } from '../service/file-api-client';
import { createPacer, done, retry } from '../service/pacer';
import type { Lane } from '../service/request-budget';
import { IMPORT_LINE_BACKOFF } from '../service/retry-policy';
import { type ImportLine, lineKey, parseImportList } from './import-lines';
import { readResults, resultsPathFor, resultsWriter } from './results-file';
import { uploadFromSource } from './upload-source';

/** One row of `<list>.results.csv`: the new file, or why the line was not imported. */
export interface ImportResult {
  line: number;
  sourceUrl: string;
  bucket: string | null;
  md5: string | null;
  /** OK: uploaded (now or by an earlier run). ERROR: refused (the line or the service). SKIPPED: not tried (the account stopped the run). */
  status: 'OK' | 'ERROR' | 'SKIPPED';
  id: number | null;
  url: string | null;
  code: string | null;
  message: string | null;
}

export const IMPORT_RESULT_COLUMNS = [
  'line',
  'source_url',
  'bucket',
  'md5',
  'status',
  'id',
  'url',
  'code',
  'message',
] as const;

const cellsOf = (r: ImportResult) => [
  r.line,
  r.sourceUrl,
  r.bucket,
  r.md5,
  r.status,
  r.id,
  r.url,
  r.code,
  r.message,
];

export interface ImportOptions {
  /** Uploads in flight at once (the service downloads each source); the budget sets the rate. */
  concurrency?: number;
  /** Default 'sync': these are uploads, first in the budget with the engine's. */
  lane?: Lane;
  signal?: AbortSignal;
  /** What the waits between sends of a line sleep on (tests move it by hand). */
  clock?: Clock;
  onResult?: (r: ImportResult, progress: { done: number; total: number }) => void;
}

export interface ImportSummary {
  lines: number;
  uploaded: number;
  /** Lines an earlier run had already uploaded (no request now). */
  alreadyDone: number;
  failed: number;
  skipped: number;
  /** Upload requests sent (retries included). */
  requests: number;
  resultsPath: string;
  /** Set when the account stopped the run (no key, closed, wallet): the lines left are SKIPPED. */
  stoppedBy: AppError | null;
}

/** Transient refusals after which nothing was stored: the same line is sent again (the budget paces it). */
const RESEND = new Set(['RATE-LIMITED', 'STORAGE-FAILED']);

/**
 * `import-urls FILE`: each line of the list is checked first (URL form, extension, bucket, md5) and
 * only a fit line costs a request: POST /files with `source_url` (and `bucket`, `hash`). Every line
 * gets a row in `FILE.results.csv`; a second run skips the lines a row says were uploaded (matched
 * by what the line says, so an edited list does not upload a file twice). A bad line never stops
 * the run; an account that cannot upload (401, 402, 403) does, and the lines left are SKIPPED.
 */
export async function importUrls(
  client: FileApiClient,
  listPath: string,
  o: ImportOptions = {},
): Promise<Result<ImportSummary, AppError>> {
  let text: string;
  try {
    text = readFileSync(listPath, 'utf8');
  } catch (e) {
    return err(appError('FILE-UNREADABLE', `The list ${listPath} cannot be read: ${(e as Error).message}`));
  }
  const lines = parseImportList(text);
  const resultsPath = resultsPathFor(listPath);
  const summary: ImportSummary = {
    lines: lines.length,
    uploaded: 0,
    alreadyDone: 0,
    failed: 0,
    skipped: 0,
    requests: 0,
    resultsPath,
    stoppedBy: null,
  };

  // What earlier runs uploaded, by what the line said; a line listed twice is uploaded twice.
  const earlier = new Map<string, ImportResult[]>();
  for (const r of readResults(resultsPath)) {
    if (r.status !== 'OK' || !/^\d+$/.test(r.id ?? '')) continue;
    const row: ImportResult = {
      line: Number(r.line),
      sourceUrl: r.source_url ?? '',
      bucket: r.bucket || null,
      md5: r.md5 || null,
      status: 'OK',
      id: Number(r.id),
      url: r.url || null,
      code: null,
      message: null,
    };
    const key = lineKey(row);
    const list = earlier.get(key) ?? [];
    // The partial file repeats rows of the final one (a run that stopped): one per id.
    if (!list.some((x) => x.id === row.id)) list.push(row);
    earlier.set(key, list);
  }
  const writer = resultsWriter<ImportResult>(resultsPath, IMPORT_RESULT_COLUMNS, cellsOf);
  writer.begin([...earlier.values()].flat());

  const results = new Map<number, ImportResult>();
  // What is written or said about a line never holds the source URL's credentials (issue 32); the
  // request still sends them. A message is cleaned too: a server may quote the URL it was given.
  const record = (given: ImportResult, fresh: boolean) => {
    const r = { ...given, message: given.message === null ? null : hideCredentialsInText(given.message) };
    results.set(r.line, r);
    if (fresh) writer.append(r);
    o.onResult?.(r, { done: results.size, total: lines.length });
  };
  const base = (l: ImportLine) => ({
    line: l.line,
    sourceUrl: hideUrlCredentials(l.sourceUrl),
    bucket: l.bucket,
    md5: l.md5,
  });

  const toSend: ImportLine[] = [];
  for (const l of lines) {
    // Rows keep the URL without its credentials, so a line is known again by the same.
    const before = earlier.get(lineKey(base(l)))?.shift();
    if (before) {
      summary.alreadyDone++;
      record({ ...before, line: l.line }, false);
    } else if (l.problem) {
      summary.failed++;
      record(
        {
          ...base(l),
          status: 'ERROR',
          id: null,
          url: null,
          code: l.problem.code,
          message: l.problem.message,
        },
        true,
      );
    } else toSend.push(l);
  }

  const lane = o.lane ?? 'sync';
  const pacer = createPacer({ policy: IMPORT_LINE_BACKOFF, ...(o.clock ? { clock: o.clock } : {}) });
  let next = 0;
  const worker = async () => {
    while (next < toSend.length) {
      const l = toSend[next++]!;
      if (summary.stoppedBy || o.signal?.aborted) {
        const why = summary.stoppedBy ?? appError('ABORTED', 'The run was stopped before this line.');
        summary.skipped++;
        record(
          { ...base(l), status: 'SKIPPED', id: null, url: null, code: why.code, message: why.message },
          true,
        );
        continue;
      }
      let r: Awaited<ReturnType<FileApiClient['uploadFromUrl']>>;
      try {
        // The client took the place and told the budget of a 429; the pacer sends the line again.
        r = await pacer.call(
          async () => {
            summary.requests++;
            const sent = await uploadFromSource(client, {
              sourceUrl: l.sourceUrl,
              ...(l.bucket !== null ? { bucket: l.bucket } : {}),
              ...(l.md5 !== null ? { md5: l.md5.toLowerCase() } : {}),
              ...(o.signal ? { signal: o.signal } : {}),
              lane,
            });
            if (sent.ok || !(RESEND.has(sent.error.code) || /^HTTP-5\d\d$/.test(sent.error.code)))
              return done(sent);
            return retry(sent, { retryAfterMs: sent.error.retryAfterMs });
          },
          { signal: o.signal },
        );
      } catch (e) {
        if (!o.signal?.aborted) throw e;
        // Stopped while waiting to send the line again: it is skipped like the lines after it.
        summary.skipped++;
        const why = appError('ABORTED', 'The run was stopped before this line.');
        record(
          { ...base(l), status: 'SKIPPED', id: null, url: null, code: why.code, message: why.message },
          true,
        );
        continue;
      }
      if (r.ok) {
        summary.uploaded++;
        record(
          { ...base(l), status: 'OK', id: r.value.id, url: r.value.url, code: null, message: null },
          true,
        );
        continue;
      }
      const e = r.error;
      if (e.reaction === 'auth' || e.reaction === 'closed' || e.reaction === 'pause') {
        summary.stoppedBy ??= appError(e.code, e.message);
        summary.skipped++;
        record(
          { ...base(l), status: 'SKIPPED', id: null, url: null, code: e.code, message: e.message },
          true,
        );
        continue;
      }
      summary.failed++;
      record({ ...base(l), status: 'ERROR', id: null, url: null, code: e.code, message: e.message }, true);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, o.concurrency ?? 4) }, worker));
  writer.finish([...results.values()].sort((a, b) => a.line - b.line));
  return ok(summary);
}
