import type { RemoteFile } from '../../../src-shared/api/file-hosting';
import { formatIstMinute } from '../../../src-shared/domain/ist-time';
import type { FileRow } from './store/files';

/** The CDN path of a file; the host part comes from where the server listens now (ports change on restart). */
export function cdnPath(row: Pick<FileRow, 'client_id' | 'bucket' | 'url_name'>): string {
  return `/storage/${row.client_id}/${row.bucket}/${encodeURIComponent(row.url_name)}`;
}

// Lists render many rows created in the same minutes: format each minute once.
const minutes = new Map<number, string>();
function createdAt(epochMs: number): string {
  const minute = Math.floor(epochMs / 60_000);
  let text = minutes.get(minute);
  if (text === undefined) {
    if (minutes.size > 10_000) minutes.clear();
    text = formatIstMinute(epochMs);
    minutes.set(minute, text);
  }
  return text;
}

export function presentFile(row: FileRow, cdnUrl: string): RemoteFile {
  return {
    id: row.id,
    url: `${cdnUrl}${cdnPath(row)}`,
    bucket: row.bucket,
    name: row.name,
    extension: row.extension,
    mime: row.mime,
    size_bytes: row.size_bytes,
    hash: row.hash,
    status: row.status,
    created_at: createdAt(row.created_at),
  };
}
