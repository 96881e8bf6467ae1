import {
  type IndexFilter,
  IndexFilterSchema,
  type IndexPage,
  type IndexQuery,
  IndexQuerySchema,
  type IndexSort,
  type IndexSummary,
} from '../../../src-shared/contract/remote-index';
import { DAY_MS, formatIstDate, parseIst } from '../../../src-shared/domain/ist-time';
import { foldForSearch } from '../../../src-shared/domain/search-fold';
import { type AppError, appError, err, ok, type Result } from '../../../src-shared/errors';
import type { Db } from '../../shared-node/sqlite';
import { statements } from '../../shared-node/statements';
import { FILE_COLUMNS, type FileRowTuple, toIndexedFile } from './index-store';

/** The column each sort reads; each has an index (account_id, column, id, the filtered columns). */
const SORT_COLUMN: Record<IndexSort, string> = {
  date: 'created_ms',
  name: 'name_fold',
  size: 'size',
  bucket: 'bucket',
};
const DEFAULT_ORDER: Record<IndexSort, 'asc' | 'desc'> = {
  date: 'desc',
  name: 'asc',
  size: 'desc',
  bucket: 'asc',
};

/** The first instant of an IST day, or null for a day that does not exist (2026-02-30). */
function istDayStart(day: string): number | null {
  const ms = parseIst(`${day} 00:00`);
  return ms !== null && formatIstDate(ms) === day ? ms : null;
}

interface Where {
  sql: string;
  params: Record<string, unknown>;
}

/**
 * The filter as SQL with only the conditions in use (each combination is its own cached statement),
 * so that SQLite can pick the bucket index for a bucket and the sort's index otherwise.
 */
function whereOf(accountId: number, f: IndexFilter): Result<Where, AppError> {
  const parts = ['account_id = @account'];
  const params: Record<string, unknown> = { account: accountId };
  if (f.search !== undefined && f.search !== '') {
    // instr on the folded name: a part of the name anywhere, no LIKE wildcards to escape. Accents and
    // case do not count (foldForSearch); a row folded before that (lower case alone, healed by the next
    // walk) is still found by the query in lower case, accents as typed.
    const folded = foldForSearch(f.search);
    const lower = f.search.toLowerCase();
    parts.push(
      folded === lower
        ? 'instr(name_fold, @search) > 0'
        : '(instr(name_fold, @search) > 0 OR instr(name_fold, @lower) > 0)',
    );
    params.search = folded;
    if (folded !== lower) params.lower = lower;
  }
  if (f.bucket !== undefined) {
    parts.push('bucket = @bucket');
    params.bucket = f.bucket;
  }
  if (f.extensions !== undefined && f.extensions.length > 0) {
    parts.push('extension IN (SELECT value FROM json_each(@extensions))');
    params.extensions = JSON.stringify(f.extensions.map((e) => e.replace(/^\./, '').toLowerCase()));
  }
  if (f.type !== undefined && f.type !== '') {
    // The schema allows no % or _ in a type; a bare `image` means `image/...`.
    const type = f.type.toLowerCase();
    parts.push('mime LIKE @type');
    params.type = `${type.includes('/') ? type : `${type}/`}%`;
  }
  if (f.minBytes !== undefined) {
    parts.push('size >= @minBytes');
    params.minBytes = f.minBytes;
  }
  if (f.maxBytes !== undefined) {
    parts.push('size <= @maxBytes');
    params.maxBytes = f.maxBytes;
  }
  if (f.from !== undefined) {
    const from = istDayStart(f.from);
    if (from === null) return err(appError('VALIDATION', `"${f.from}" is not a date (YYYY-MM-DD).`));
    parts.push('created_ms >= @from');
    params.from = from;
  }
  if (f.to !== undefined) {
    const to = istDayStart(f.to);
    if (to === null) return err(appError('VALIDATION', `"${f.to}" is not a date (YYYY-MM-DD).`));
    parts.push('created_ms < @to');
    params.to = to + DAY_MS;
  }
  return ok({ sql: parts.join(' AND '), params });
}

function invalid(e: { issues: { path: PropertyKey[]; message: string }[] }): AppError {
  const issue = e.issues[0];
  const where = issue?.path.length ? `${issue.path.join('.')}: ` : '';
  return appError('VALIDATION', `${where}${issue?.message ?? 'the query is malformed'}`);
}

/** A keyset cursor: the sort value and id of the last row shown, opaque to the caller. */
function encodeCursor(value: string | number, id: number): string {
  return Buffer.from(JSON.stringify([value, id])).toString('base64url');
}

function decodeCursor(text: string, sort: IndexSort): [string | number, number] | null {
  try {
    const v = JSON.parse(Buffer.from(text, 'base64url').toString('utf8')) as unknown;
    if (!Array.isArray(v) || v.length !== 2 || !Number.isSafeInteger(v[1])) return null;
    const numeric = sort === 'date' || sort === 'size';
    if (numeric ? !Number.isSafeInteger(v[0]) : typeof v[0] !== 'string') return null;
    return [v[0] as string | number, v[1] as number];
  } catch {
    return null;
  }
}

/** Answers the Files view and the exports from the local table: no request. */
export function indexQueries(db: Db) {
  const prep = statements(db);

  return {
    /** One page in the asked order; `next` continues after its last row. */
    page(accountId: number, input: IndexQuery): Result<IndexPage, AppError> {
      const parsed = IndexQuerySchema.safeParse(input);
      if (!parsed.success) return err(invalid(parsed.error));
      const q = parsed.data;
      const where = whereOf(accountId, q);
      if (!where.ok) return where;
      const column = SORT_COLUMN[q.sort];
      const direction = q.order ?? DEFAULT_ORDER[q.sort];
      const params = { ...where.value.params, limit: q.limit + 1 };
      let keyset = '';
      let offset = '';
      if (q.after !== undefined) {
        const cursor = decodeCursor(q.after, q.sort);
        if (!cursor)
          return err(appError('VALIDATION', 'after: not a cursor of this sort (start again from the top).'));
        keyset = ` AND (${column}, id) ${direction === 'desc' ? '<' : '>'} (@afterValue, @afterId)`;
        Object.assign(params, { afterValue: cursor[0], afterId: cursor[1] });
      } else if (q.offset !== undefined && q.offset > 0) {
        offset = ' OFFSET @offset';
        Object.assign(params, { offset: q.offset });
      }
      const dir = direction === 'desc' ? 'DESC' : 'ASC';
      // The page's ids come from the sort's covering index alone (the filter checked there, an offset
      // skipped there); only then are the page's own rows read, by key. CROSS JOIN keeps that order
      // without table statistics (without it SQLite scanned the whole index against the id list).
      const f = (c: string) => `f.${c}`;
      const rows = prep<Record<string, unknown>, [...FileRowTuple, string | number]>(
        `SELECT ${FILE_COLUMNS.split(', ').map(f).join(', ')}, f.${column}
         FROM (SELECT account_id, id FROM remote_index_files WHERE ${where.value.sql}${keyset}
               ORDER BY ${column} ${dir}, id ${dir} LIMIT @limit${offset}) AS p
         CROSS JOIN remote_index_files AS f ON f.account_id = p.account_id AND f.id = p.id
         ORDER BY f.${column} ${dir}, f.id ${dir}`,
      )
        .raw()
        .all(params);
      const more = rows.length > q.limit;
      const shown = more ? rows.slice(0, q.limit) : rows;
      const last = shown.at(-1);
      return ok({
        files: shown.map((r) => toIndexedFile(r.slice(0, 9) as FileRowTuple)),
        next: more && last ? encodeCursor(last[9], last[0]) : null,
      });
    },

    /** How many files match and their bytes (a bulk action's confirmation), without a request. */
    summary(accountId: number, input: IndexFilter = {}): Result<IndexSummary, AppError> {
      const parsed = IndexFilterSchema.safeParse(input);
      if (!parsed.success) return err(invalid(parsed.error));
      const where = whereOf(accountId, parsed.data);
      if (!where.ok) return where;
      const r = prep<Record<string, unknown>, { count: number; bytes: number }>(
        `SELECT COUNT(*) AS count, COALESCE(SUM(size), 0) AS bytes FROM remote_index_files WHERE ${where.value.sql}`,
      ).get(where.value.params)!;
      return ok({ count: r.count, bytes: r.bytes });
    },

    /** The buckets that hold files, A to Z (the filter's choices). */
    buckets(accountId: number): string[] {
      // Skip-scan over the bucket index: one step per bucket, not per file.
      return prep<[number], string>(
        'SELECT DISTINCT bucket FROM remote_index_files WHERE account_id = ? ORDER BY bucket',
      )
        .pluck()
        .all(accountId);
    },
  };
}

export type IndexQueries = ReturnType<typeof indexQueries>;
