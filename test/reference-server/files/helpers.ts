import { createHash } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { ServerOptionsInput } from '../../../src-main/reference-server/options';
import { nextIstMidnight } from '../../../src-shared/domain/ist-time';
import { call, createClient, startTestServer } from '../../support/reference-server';

export { call, type Reply } from '../../support/reference-server';

export const API = '/api/assets/v1';

/** A real server on port 0 in a temp folder (rate limit off unless asked); `stop` closes it and removes the folder. */
export async function startServer(options: ServerOptionsInput = {}) {
  const s = await startTestServer({ tempPrefix: 'files-test-', ratePerMinute: 0, ...options });
  const { admin, baseUrl: base, dir } = s;
  const api = (key: string | null, method: string, path: string, init: RequestInit = {}) =>
    call(`${base}${API}${path}`, {
      ...init,
      method,
      headers: { ...(key === null ? {} : { authorization: `Bearer ${key}` }), ...(init.headers ?? {}) },
    });
  return {
    server: s.server,
    dir,
    base,
    admin,
    api,
    /** A multipart upload of `bytes` named `filename`, with the optional fields. */
    upload(key: string, filename: string, bytes: string, fields: Record<string, string> = {}) {
      const form = new FormData();
      for (const [k, v] of Object.entries(fields)) form.set(k, v);
      form.set('file', new Blob([bytes]), filename);
      return api(key, 'POST', '/files', { body: form });
    },
    newClient: (body: Record<string, unknown> = {}) => createClient(admin, { name: 'Test client', ...body }),
    /** Moves the server's clock just past the next IST midnight, `days` times. */
    async passMidnights(days = 1) {
      for (let i = 0; i < days; i++) {
        const now = Date.parse((await admin('GET', '/clock')).json.now);
        const seconds = Math.ceil((nextIstMidnight(now) - now) / 1000) + 1;
        const r = await admin('POST', '/clock/advance', { seconds });
        if (r.status !== 200) throw new Error('clock did not advance');
      }
    },
    tempFiles: () => readdirSync(join(dir, 'tmp-uploads')),
    objectCount: () => countFiles(join(dir, 'objects')),
    stop: s.stop,
  };
}
export type TestServer = Awaited<ReturnType<typeof startServer>>;

function countFiles(dir: string): number {
  let n = 0;
  for (const e of readdirSync(dir, { withFileTypes: true }))
    n += e.isDirectory() ? countFiles(join(dir, e.name)) : 1;
  return n;
}

/** The price at which a day's rent is exactly one paisa per stored byte (rent tests use small files). */
export const PAISA_PER_BYTE_DAY = 1024 ** 3 * 30;

export function md5(text: string | Uint8Array): string {
  return createHash('md5').update(text).digest('hex');
}
