import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ServerOptionsInput } from '../../src-main/reference-server/options';
import { startReferenceServer } from '../../src-main/reference-server/server';

/** Talking to the reference server from tests: a real server on port 0 and plain HTTP calls to it. */

export interface Reply {
  status: number;
  // biome-ignore lint/suspicious/noExplicitAny: replies are checked field by field by the tests' assertions.
  json: any;
  headers: Headers;
}

/** One HTTP call; the body is parsed when it is JSON and kept as text when it is not (errors, HTML). */
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

/** The headers and body of a JSON request, or nothing when there is no body (a string is sent as is). */
export function jsonBody(body: unknown): { headers: Record<string, string>; body?: string } {
  if (body === undefined) return { headers: {} };
  return {
    headers: { 'content-type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  };
}

/** One call to the admin surface (`/__admin/v1`, reference-server.md). */
export function adminCall(baseUrl: string, token: string, method: string, path: string, body?: unknown) {
  const json = jsonBody(body);
  return call(`${baseUrl}/__admin/v1${path}`, {
    method,
    headers: { 'x-admin-token': token, ...json.headers },
    body: json.body,
  });
}

/** One call to the knowledge entry API as a bot (`token` null sends none); a string body is sent as is. */
export function entryCall(baseUrl: string, token: string | null, method: string, path = '', body?: unknown) {
  const json = jsonBody(body);
  return call(`${baseUrl}/api/mebot/kb/entries${path}`, {
    method,
    headers: { ...(token === null ? {} : { 'x-bot-token': token }), ...json.headers },
    body: json.body,
  });
}

export type Admin = (method: string, path: string, body?: unknown) => Promise<Reply>;

/** POSTs `body` to an admin collection and returns the created thing's reply, or throws with the server's answer. */
export async function adminCreate(admin: Admin, path: string, body: Record<string, unknown>) {
  const r = await admin('POST', path, body);
  if (r.status !== 201) throw new Error(`admin POST ${path} answered ${r.status}: ${JSON.stringify(r.json)}`);
  return r.json;
}

/** A new client, with its own key and its own rate-limit budget. */
export async function createClient(admin: Admin, body: Record<string, unknown>) {
  return (await adminCreate(admin, '/clients', body)) as {
    client: { id: number };
    api_key: string;
    key_id: number;
  };
}

/** A new bot of `clientId`, with its entry token and webhook signing secret. */
export async function createBot(admin: Admin, clientId: number, body: Record<string, unknown>) {
  return (await adminCreate(admin, '/bots', { client_id: clientId, ...body })) as {
    bot: { id: number };
    token: string;
    signing_secret: string;
  };
}

/**
 * A real reference server on port 0 with its data in a new temp folder (or `dataDir`), exactly as
 * `options` say. `stop` closes it and removes the folder unless asked to keep it.
 */
export async function startTestServer(options: ServerOptionsInput & { tempPrefix?: string } = {}) {
  const { tempPrefix = 'ref-server-test-', ...serverOptions } = options;
  const dir = serverOptions.dataDir ?? mkdtempSync(join(tmpdir(), tempPrefix));
  const server = await startReferenceServer({ ...serverOptions, dataDir: dir });
  return {
    server,
    dir,
    baseUrl: server.baseUrl,
    adminToken: server.adminToken,
    /** An admin call, with the server's token unless another is given (to test refusals). */
    admin: (method: string, path: string, body?: unknown, token = server.adminToken) =>
      adminCall(server.baseUrl, token, method, path, body),
    async stop(keepDir = false) {
      await server.close();
      if (!keepDir) rmSync(dir, { recursive: true, force: true });
    },
  };
}
