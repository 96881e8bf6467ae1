import type { IndexedFile } from '../../../src-shared/contract/remote-index';
import { csvLine } from '../../../src-shared/domain/csv';
import { csvTime, csvTimeHeader } from '../../../src-shared/domain/time-format';

/** The columns of every export of the index (CLI `files --csv/--json`, the Files view's export). */
export const EXPORT_COLUMNS = ['id', 'name', 'bucket', 'url', 'size', 'md5', 'created_at', 'mime'] as const;

export interface ExportRow {
  id: number;
  name: string;
  bucket: string;
  url: string;
  size: number;
  md5: string;
  /** `YYYY-MM-DD HH:MM`, IST, as the service says. */
  created_at: string;
  mime: string;
}

export const exportRow = (f: IndexedFile): ExportRow => ({
  id: f.id,
  name: f.name,
  bucket: f.bucket,
  url: f.url,
  size: f.size,
  md5: f.md5,
  created_at: f.createdAt,
  mime: f.mime,
});

export const csvHeader = (): string =>
  csvLine(EXPORT_COLUMNS.map((c) => (c === 'created_at' ? csvTimeHeader(c) : c)));

/** One CSV line; names are anyone's text, so a name like `=HYPERLINK(...)` stays text (csv.ts). */
export const csvRow = (f: IndexedFile): string => {
  // The service's created_at has no zone: the CSV says it with +05:30, so a spreadsheet reads it right.
  const r = { ...exportRow(f), created_at: csvTime(f.createdAt) };
  return csvLine(EXPORT_COLUMNS.map((c) => r[c]));
};

/** The whole export as CSV text (for a selection; the CLI streams line by line instead). */
export function filesToCsv(files: Iterable<IndexedFile>): string {
  let out = csvHeader();
  for (const f of files) out += csvRow(f);
  return out;
}

/** The whole export as a JSON array. */
export function filesToJson(files: Iterable<IndexedFile>): string {
  return JSON.stringify([...files].map(exportRow));
}
