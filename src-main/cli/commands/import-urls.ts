import { accessSync, constants } from 'node:fs';
import { resolve } from 'node:path';
import { appError } from '../../../src-shared/errors';
import { checkIds, importUrls } from '../../core';
import { EXIT, parseCommand, withConnection } from '../common';

const USAGE = `assets-sync import-urls FILE [--check-ids] [--concurrency N]
  Uploads each source URL of FILE (a text file of URLs, or a CSV of source_url[,bucket[,md5]]) from the
  URL, as the retired saveToLocal did. Each line is checked first (http/https, an allowed extension,
  the bucket rule, an md5 of 32 hex characters): a bad line costs no request and never stops the run.
  One row per line goes to FILE.results.csv: the new id and URL, or the code and message. Run it again
  to retry what failed: lines that succeeded are skipped.
  --check-ids     FILE lists old cdn_ids (the new file ids): each is read, LIVE with its URL or GONE
  --concurrency   uploads in flight at once (default 4); the request budget sets the rate
  Exit code 0 when every line succeeded (or is LIVE), 1 when some did not: the results file says which.`;

export async function run(argv: string[]): Promise<number> {
  const p = parseCommand('import-urls', argv, {
    options: {
      'check-ids': { type: 'boolean', default: false },
      concurrency: { type: 'string' },
    },
    usage: USAGE,
    positionals: { min: 1, max: 1 },
  });
  if (!p.ok) return p.exitCode;
  const { common, out, values, positionals } = p;
  const file = resolve(positionals[0]!);
  try {
    accessSync(file, constants.R_OK);
  } catch (e) {
    out.error(
      appError('FILE-UNREADABLE', `${file} cannot be read: ${(e as NodeJS.ErrnoException).code ?? e}`),
    );
    return EXIT.usage;
  }
  let concurrency = 4;
  if (values.concurrency !== undefined) {
    if (
      !/^\d+$/.test(values.concurrency) ||
      Number(values.concurrency) < 1 ||
      Number(values.concurrency) > 32
    ) {
      out.error(
        appError(
          'VALIDATION',
          `--concurrency must be a whole number from 1 to 32, not "${values.concurrency}".`,
        ),
      );
      return EXIT.usage;
    }
    concurrency = Number(values.concurrency);
  }

  return withConnection(common, out, async (s) => {
    if (values['check-ids']) {
      const r = await checkIds(s.client, file, {
        concurrency,
        onResult: (c) =>
          out.emit(
            `line ${c.line}: ${c.cdnId} ${c.status === 'ERROR' ? 'not checked' : c.status.toLowerCase()}${c.url ? `  ${c.url}` : ''}${c.status === 'ERROR' ? `: ${c.message}` : ''}`,
            {
              event: 'check.line',
              line: c.line,
              cdn_id: c.cdnId,
              status: c.status,
              url: c.url,
              code: c.code,
              message: c.message,
            },
          ),
      });
      if (!r.ok) {
        out.error(r.error);
        return EXIT.failed;
      }
      const v = r.value;
      out.emit(
        `${v.lines} ids: ${v.live} live, ${v.gone} gone, ${v.errors} not checked. Results: ${v.resultsPath}`,
        {
          event: 'check.summary',
          lines: v.lines,
          live: v.live,
          gone: v.gone,
          errors: v.errors,
          results: v.resultsPath,
        },
      );
      return v.gone + v.errors === 0 ? EXIT.ok : EXIT.failed;
    }

    const r = await importUrls(s.client, file, {
      concurrency,
      onResult: (row) =>
        out.emit(
          row.status === 'OK'
            ? `line ${row.line}: OK ${row.id}  ${row.url}`
            : `line ${row.line}: ${row.status === 'SKIPPED' ? 'skipped' : 'failed'}: ${row.message ?? ''}`,
          lineEvent(row),
        ),
    });
    if (!r.ok) {
      out.error(r.error);
      return EXIT.failed;
    }
    const v = r.value;
    out.emit(
      `${v.lines} lines: ${v.uploaded} uploaded, ${v.alreadyDone} done before, ${v.failed} failed, ${v.skipped} skipped. Results: ${v.resultsPath}`,
      {
        event: 'import.summary',
        lines: v.lines,
        uploaded: v.uploaded,
        already_done: v.alreadyDone,
        failed: v.failed,
        skipped: v.skipped,
        requests: v.requests,
        results: v.resultsPath,
      },
    );
    if (v.stoppedBy) out.error(v.stoppedBy);
    // Exit 0 only when every line is live; a run stopped part-way (the wallet, the key) is a failure.
    return v.failed + v.skipped === 0 && !v.stoppedBy ? EXIT.ok : EXIT.failed;
  });
}

function lineEvent(row: {
  line: number;
  sourceUrl: string;
  status: string;
  id: number | null;
  url: string | null;
  code: string | null;
  message: string | null;
}) {
  return {
    event: 'import.line',
    line: row.line,
    source_url: row.sourceUrl,
    status: row.status,
    id: row.id,
    url: row.url,
    code: row.code,
    message: row.message,
  };
}
