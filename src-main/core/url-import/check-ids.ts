import { readFileSync } from 'node:fs';
import { parseCsvLine } from '../../../src-shared/domain/csv';
import { type AppError, appError, err, ok, type Result } from '../../../src-shared/errors';
import type { FileApiClient } from '../service/file-api-client';
import type { Lane } from '../service/request-budget';
import { resultsPathFor, resultsWriter } from './results-file';

/** One row of `<list>.results.csv` in the check mode. */
export interface IdCheck {
  line: number;
  /** As written in the list. */
  cdnId: string;
  /** LIVE: the file is there (url, name). GONE: deleted or never this account's. ERROR: not checked. */
  status: 'LIVE' | 'GONE' | 'ERROR';
  url: string | null;
  name: string | null;
  code: string | null;
  message: string | null;
}

export const ID_CHECK_COLUMNS = ['line', 'cdn_id', 'status', 'url', 'name', 'code', 'message'] as const;

export interface IdCheckSummary {
  lines: number;
  live: number;
  gone: number;
  errors: number;
  requests: number;
  resultsPath: string;
}

/**
 * `import-urls FILE --check-ids`: the list holds old `cdn_id`s of the retired interface, which the
 * service documents as the new file ids. Each is read (GET /files/{id}): LIVE with its URL, or
 * GONE. A line that is not a whole number costs no request.
 */
export async function checkIds(
  client: FileApiClient,
  listPath: string,
  o: { concurrency?: number; lane?: Lane; onResult?: (r: IdCheck) => void } = {},
): Promise<Result<IdCheckSummary, AppError>> {
  let text: string;
  try {
    text = readFileSync(listPath, 'utf8');
  } catch (e) {
    return err(appError('FILE-UNREADABLE', `The list ${listPath} cannot be read: ${(e as Error).message}`));
  }
  const entries: { line: number; cdnId: string }[] = [];
  text
    .replace(/^\uFEFF/, '')
    .split(/\r\n|\n|\r/)
    .forEach((raw, i) => {
      if (raw.trim() === '' || raw.trimStart().startsWith('#')) return;
      const first = (parseCsvLine(raw)?.[0] ?? raw).trim();
      if (entries.length === 0 && /^(cdn_id|id)$/i.test(first)) return;
      entries.push({ line: i + 1, cdnId: first });
    });
  const resultsPath = resultsPathFor(listPath);
  const summary: IdCheckSummary = {
    lines: entries.length,
    live: 0,
    gone: 0,
    errors: 0,
    requests: 0,
    resultsPath,
  };
  const writer = resultsWriter<IdCheck>(resultsPath, ID_CHECK_COLUMNS, (r) => [
    r.line,
    r.cdnId,
    r.status,
    r.url,
    r.name,
    r.code,
    r.message,
  ]);
  writer.begin([]);
  const results: IdCheck[] = [];
  const record = (r: IdCheck) => {
    if (r.status === 'LIVE') summary.live++;
    else if (r.status === 'GONE') summary.gone++;
    else summary.errors++;
    results.push(r);
    writer.append(r);
    o.onResult?.(r);
  };
  const lane = o.lane ?? 'user';
  let next = 0;
  const worker = async () => {
    while (next < entries.length) {
      const e = entries[next++]!;
      const none = { url: null, name: null };
      if (!/^\d{1,15}$/.test(e.cdnId)) {
        record({
          ...e,
          status: 'ERROR',
          ...none,
          code: 'VALIDATION',
          message: `"${e.cdnId}" is not a file id (a whole number).`,
        });
        continue;
      }
      summary.requests++;
      const r = await client.getFile(Number(e.cdnId), { lane });
      if (r.ok)
        record({ ...e, status: 'LIVE', url: r.value.url, name: r.value.name, code: null, message: null });
      else if (r.error.code === 'GONE')
        record({ ...e, status: 'GONE', ...none, code: 'GONE', message: null });
      else record({ ...e, status: 'ERROR', ...none, code: r.error.code, message: r.error.message });
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, o.concurrency ?? 4) }, worker));
  writer.finish(results.sort((a, b) => a.line - b.line));
  return ok(summary);
}
