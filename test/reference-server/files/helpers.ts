import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ServerOptionsInput } from '../../../src-main/reference-server/options';
import { startReferenceServer } from '../../../src-main/reference-server/server';
import { nextIstMidnight } from '../../../src-shared/domain/ist-time';

export interface Reply {
  status: number;
  // biome-ignore lint/suspicious/noExplicitAny: replies are checked field by field by the tests' assertions.
  json: any;
  headers: Headers;
}

export async function call(url: string, init: RequestInit = {}): Promise<Reply> {
  const res = await fetch(url, init);
  const text = await res.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = text;
  }
  return { status: res.status, json, headers: res.headers };
}

export const API = '/api/assets/v1';

/** A real server on port 0 in a temp folder (rate limit off unless asked); `stop` closes it and removes the folder. */
export async function startServer(options: ServerOptionsInput = {}) {
  const dir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'files-test-'));
  const server = await startReferenceServer({ ratePerMinute: 0, ...options, dataDir: dir });
  const base = server.baseUrl;
  const admin = (method: string, path: string, body?: unknown, token = server.adminToken) =>
    call(`${base}/__admin/v1${path}`, {
      method,
      headers: {
        'x-admin-token': token,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  const api = (key: string | null, method: string, path: string, init: RequestInit = {}) =>
    call(`${base}${API}${path}`, {
      ...init,
      method,
      headers: { ...(key === null ? {} : { authorization: `Bearer ${key}` }), ...(init.headers ?? {}) },
    });
  return {
    server,
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
    async newClient(body: Record<string, unknown> = {}) {
      const r = await admin('POST', '/clients', { name: 'Test client', ...body });
      if (r.status !== 201) throw new Error(`client not created: ${JSON.stringify(r.json)}`);
      return r.json as { client: { id: number }; api_key: string; key_id: number };
    },
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
    async stop(keepDir = false) {
      await server.close();
      if (!keepDir) rmSync(dir, { recursive: true, force: true });
    },
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
