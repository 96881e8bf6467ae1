import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { importRunSentence } from '../../../../src-shared/domain/words';
import { type AppError, appError, err, ok, type Result } from '../../../../src-shared/errors';
import { makePrivateDir } from '../../../shared-node/private-files';
import { checkIds, type IdCheck } from '../../url-import/check-ids';
import { parseImportList } from '../../url-import/import-lines';
import { type ImportResult, importUrls } from '../../url-import/import-urls';
import { activityRecorder } from '../activity-record';
import type { AppContext } from '../context';
import { notConnected, plainError } from '../errors';
import type { Section } from '../section';

/**
 * Where a named list lives: `<data>/url-imports/<name>.<hash>.txt`, its results file next to it.
 * The same name finds the same results, so a second run skips what the first uploaded (the core
 * matches lines by what they say, so a list edited between runs is fine).
 */
function listPathFor(dataDir: string, mode: 'import' | 'ids', name: string): string {
  const dir = join(dataDir, 'url-imports');
  makePrivateDir(dir);
  const safe = name.replace(/[^A-Za-z0-9._-]+/g, '_').slice(0, 60);
  const hash = createHash('sha256').update(name).digest('hex').slice(0, 10);
  return join(dir, `${mode}.${safe}.${hash}.txt`);
}

const readText = (path: string): string => {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return '';
  }
};

/** One run per list at a time: a second click while the first runs would upload its lines twice. */
export function urlImportSection(ctx: AppContext): Section {
  const record = activityRecorder(ctx);
  const running = new Set<string>();

  async function once<T>(
    path: string,
    run: () => Promise<Result<T, AppError>>,
  ): Promise<Result<T, AppError>> {
    if (running.has(path))
      return err(appError('BUSY', 'This list is being imported already; wait for that run to finish.'));
    running.add(path);
    try {
      return await run();
    } finally {
      running.delete(path);
    }
  }

  return {
    name: 'url-import',
    handlers: {
      'urlImport.check': async ({ text }) =>
        ok({
          lines: parseImportList(text).map((l) => ({
            ...l,
            problem: l.problem ? plainError(l.problem) : null,
          })),
        }),

      'urlImport.run': async ({ name, text }) => {
        const live = ctx.session.live;
        if (!live) return notConnected();
        const path = listPathFor(ctx.dataDir, 'import', name);
        return once(path, async () => {
          writeFileSync(path, text);
          const rows: ImportResult[] = [];
          const r = await importUrls(live.client, path, {
            onResult: (row, p) => {
              rows.push(row);
              ctx.bus.emit('urlImport.progress', { name, mode: 'import', done: p.done, total: p.total });
            },
          });
          if (!r.ok) return err(plainError(r.error));
          const csv = readText(r.value.resultsPath);
          const { resultsPath: _, stoppedBy, ...counts } = r.value;
          record(
            counts.failed > 0 || stoppedBy ? 'url-import-failed' : 'url-import',
            importRunSentence(name, counts, stoppedBy?.message ?? null),
          );
          return ok({
            ...counts,
            stoppedBy: stoppedBy ? plainError(stoppedBy) : null,
            results: rows.sort((a, b) => a.line - b.line),
            csv,
          });
        });
      },

      'urlImport.checkIds': async ({ name, text }) => {
        const live = ctx.session.live;
        if (!live) return notConnected();
        const path = listPathFor(ctx.dataDir, 'ids', name);
        return once(path, async () => {
          writeFileSync(path, text);
          let done = 0;
          const total = idLineCount(text);
          const rows: IdCheck[] = [];
          const r = await checkIds(live.client, path, {
            onResult: (row) => {
              rows.push(row);
              ctx.bus.emit('urlImport.progress', { name, mode: 'check-ids', done: ++done, total });
            },
          });
          if (!r.ok) return err(plainError(r.error));
          const { resultsPath, ...counts } = r.value;
          return ok({ ...counts, results: rows.sort((a, b) => a.line - b.line), csv: readText(resultsPath) });
        });
      },
    },
  };
}

/** The lines checkIds will answer (blank, `#` and a first `cdn_id` header line are not ids). */
function idLineCount(text: string): number {
  const lines = text.split(/\r\n|\n|\r/).filter((l) => l.trim() !== '' && !l.trimStart().startsWith('#'));
  return lines.length > 0 && /^\s*"?(cdn_id|id)"?\s*(,|$)/i.test(lines[0]!) ? lines.length - 1 : lines.length;
}
