import type { RemoteFile } from '../../../../src-shared/api/file-hosting';
import { err, ok, type Result } from '../../../../src-shared/errors';
import { type ApiError, ApiFailure } from '../../service/api-error';
import type { FileApiClient } from '../../service/file-api-client';

/** The bucket's live files by content, for "is this already on the service?". */
export interface RemoteCopies {
  /** A live copy with these bytes, the one named `name` first; null when the bucket has none. */
  find(size: number, md5: string, name: string): { id: number; name: string; url: string } | null;
  /** Live files and requests spent to learn them (listing pages). */
  readonly files: number;
  readonly requests: number;
}

export function remoteCopiesOf(
  files: Iterable<Pick<RemoteFile, 'id' | 'name' | 'url' | 'size_bytes' | 'hash'>>,
  requests = 0,
): RemoteCopies {
  const byContent = new Map<string, { id: number; name: string; url: string }[]>();
  let count = 0;
  for (const f of files) {
    count++;
    const key = `${f.size_bytes}:${f.hash}`;
    const list = byContent.get(key);
    const entry = { id: f.id, name: f.name, url: f.url };
    if (list) list.push(entry);
    else byContent.set(key, [entry]);
  }
  return {
    find(size, md5, name) {
      const list = byContent.get(`${size}:${md5}`);
      if (!list) return null;
      return list.find((c) => c.name === name) ?? list[0]!;
    },
    files: count,
    requests,
  };
}

/** One listing of the bucket (pages of 100): reads only, no upload request. */
export async function listBucketCopies(
  client: FileApiClient,
  bucket: string,
): Promise<Result<RemoteCopies, ApiError>> {
  const files: RemoteFile[] = [];
  try {
    for await (const f of client.listAllFiles({ bucket })) files.push(f);
  } catch (e) {
    if (e instanceof ApiFailure) return err(e.error);
    throw e;
  }
  return ok(remoteCopiesOf(files, Math.max(1, Math.ceil(files.length / 100))));
}
