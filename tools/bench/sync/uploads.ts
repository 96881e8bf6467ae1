import { mkdirSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import { childrenCpuMs } from '../shared/cpu';
import { writeRandomFile } from '../shared/fixtures';
import type { BenchServer } from '../shared/processes';
import { timeShell } from '../shared/processes';
import type { Served } from '../shared/served';

/** `curl -F` of one file into `bucket`, timed; throws unless the server answered 201. */
export async function curlUpload(
  server: BenchServer,
  file: string,
  bucket: string,
): Promise<{ ms: number; cpuMs: number }> {
  // `times`: the CPU curl used (bash's ended children), printed after its status.
  const c = await timeShell(
    `curl -s -o /dev/null -w '%{http_code}\\n' -H "Authorization: Bearer $KEY" -F "bucket=$BUCKET" -F "file=@$FILE" ${server.url}/api/assets/v1/files; times`,
    { KEY: server.apiKey, BUCKET: bucket, FILE: file },
  );
  const status = c.stdout.split('\n')[0];
  if (status !== '201') throw new Error(`curl's upload answered ${status}`);
  return { ms: c.ms, cpuMs: childrenCpuMs(c.stdout) };
}

/** "1 upload, 209,715,600 bytes received": the server's count, printed beside the time it verifies. */
export const receivedText = (s: Served) =>
  `${s.requests} upload${s.requests === 1 ? '' : 's'}, ${s.bytes.toLocaleString('en')} bytes received`;

/**
 * `xargs -P4 curl -F` of every file under `folder` into the bucket "curl", timed; throws unless
 * `count` uploads answered 201.
 */
export async function curlFolder(
  server: BenchServer,
  folder: string,
  count: number,
): Promise<{ ms: number }> {
  const curl = await timeShell(
    `find "$DIR" -type f -print0 | xargs -0 -P4 -I{} curl -s -o /dev/null -w '%{http_code}\\n' -H "Authorization: Bearer $KEY" -F bucket=curl -F "file=@{}" ${server.url}/api/assets/v1/files`,
    { KEY: server.apiKey, DIR: folder },
  );
  const created = curl.stdout.split('\n').filter((l) => l === '201').length;
  if (created !== count) throw new Error(`curl uploaded ${created} of ${count} files`);
  return { ms: curl.ms };
}

/** A folder holding one random file of `size` bytes, dropped a minute ago (past the stability window). */
export function bigFileFolder(dir: string, size: number): { src: string; file: string } {
  const src = join(dir, 'src');
  mkdirSync(src);
  const file = join(src, 'video.mp4');
  writeRandomFile(file, size);
  const past = new Date(Date.now() - 60_000);
  utimesSync(file, past, past);
  return { src, file };
}
