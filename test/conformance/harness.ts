// Black-box harness: starts the reference server the way an outsider does (the npm script, as a child
// process) and talks to it only over HTTP. It imports nothing from the server's code on purpose, so the
// conformance suite checks the documents, not the implementation's own idea of them.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const PROJECT_ROOT = resolve(import.meta.dirname, '..', '..');

export interface ReadyLine {
  event: 'ready';
  base_url: string;
  cdn_url: string;
  admin_token: string;
  demo?: {
    client_id: number;
    api_key: string;
    key_id: number;
    bot_id: number;
    bot_token: string;
    signing_secret: string;
  };
  [key: string]: unknown;
}

export interface Reply {
  status: number;
  // biome-ignore lint/suspicious/noExplicitAny: replies are checked field by field by the tests.
  json: any;
  text: string;
  headers: Headers;
}

export interface RunningServer {
  ready: ReadyLine;
  /** Every stdout line printed so far (the ready line among them). */
  stdoutLines: string[];
  dataDir: string;
  child: ChildProcess;
  /**
   * Sends the signal to the spawned process (npm, as an outsider would) and resolves with its exit code
   * (null when killed by a signal, 'timeout' when it did not exit within 10 s). Whatever is left of the
   * process group afterwards is killed, so no test leaves a server behind.
   */
  stop(signal?: NodeJS.Signals): Promise<number | null | 'timeout'>;
  /** After stop: whether the base URL still answered, i.e. the server outlived the signal. */
  stillServing: boolean;
  admin(method: string, path: string, body?: unknown, token?: string | null): Promise<Reply>;
  api(method: string, path: string, key: string | null, body?: unknown): Promise<Reply>;
  kb(method: string, path: string, token: string | null, body?: unknown): Promise<Reply>;
}

export function tempDir(prefix = 'conformance-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

export async function call(url: string, init: RequestInit = {}): Promise<Reply> {
  const res = await fetch(url, init);
  const text = await res.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, json, text, headers: res.headers };
}

function jsonInit(method: string, headers: Record<string, string>, body: unknown): RequestInit {
  if (body === undefined) return { method, headers };
  if (body instanceof FormData) return { method, headers, body };
  // A string is sent as is, so tests can send malformed JSON.
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  return { method, headers: { 'content-type': 'application/json', ...headers }, body: text };
}

/**
 * `npm run --silent reference-server -- --port 0 --data-dir DIR [flags]`, cwd the project root; resolves
 * once the one JSON line with "event":"ready" is on stdout.
 */
export async function startServer(flags: string[] = [], dataDir = tempDir()): Promise<RunningServer> {
  const child = spawn(
    'npm',
    ['run', '--silent', 'reference-server', '--', '--port', '0', '--data-dir', dataDir, ...flags],
    // Its own process group, so cleanup can reach the server even if npm leaves it orphaned.
    { cwd: PROJECT_ROOT, stdio: ['ignore', 'pipe', 'pipe'], detached: true },
  );
  const stdoutLines: string[] = [];
  let stderr = '';
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
    stderr = (stderr + chunk).slice(-4000);
  });
  const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));

  const ready = await new Promise<ReadyLine>((done, fail) => {
    let buffer = '';
    const timer = setTimeout(() => fail(new Error(`no ready line within 30 s; stderr:\n${stderr}`)), 30_000);
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      buffer += chunk;
      for (let nl = buffer.indexOf('\n'); nl >= 0; nl = buffer.indexOf('\n')) {
        const line = buffer.slice(0, nl);
        buffer = buffer.slice(nl + 1);
        stdoutLines.push(line);
        try {
          const parsed = JSON.parse(line);
          if (parsed && parsed.event === 'ready') {
            clearTimeout(timer);
            done(parsed);
          }
        } catch {
          // Lines before the ready line may be anything.
        }
      }
    });
    exited.then((code) => {
      clearTimeout(timer);
      fail(new Error(`server exited (${code}) before its ready line; stderr:\n${stderr}`));
    });
  });

  const base = ready.base_url;
  const running: RunningServer = {
    ready,
    stdoutLines,
    dataDir,
    child,
    stillServing: false,
    async stop(signal: NodeJS.Signals = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      const code = await Promise.race([
        exited,
        new Promise<'timeout'>((done) => setTimeout(() => done('timeout'), 10_000)),
      ]);
      running.stillServing = await fetch(`${base}/__admin/v1/clock`, {
        signal: AbortSignal.timeout(1000),
      }).then(
        () => true,
        () => false,
      );
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // The group is already gone.
      }
      return code;
    },
    admin(method, path, body, token = ready.admin_token) {
      const headers: Record<string, string> = token === null ? {} : { 'x-admin-token': token };
      return call(`${base}/__admin/v1${path}`, jsonInit(method, headers, body));
    },
    api(method, path, key, body) {
      const headers: Record<string, string> = key === null ? {} : { authorization: `Bearer ${key}` };
      return call(`${base}/api/assets/v1${path}`, jsonInit(method, headers, body));
    },
    kb(method, path, token, body) {
      const headers: Record<string, string> = token === null ? {} : { 'x-bot-token': token };
      return call(`${base}/api/mebot/kb/entries${path}`, jsonInit(method, headers, body));
    },
  };
  return running;
}

/** Stops the server (if still running) and removes its data folder. */
export async function disposeServer(server: RunningServer | undefined): Promise<void> {
  if (!server) return;
  await server.stop('SIGTERM');
  rmSync(server.dataDir, { recursive: true, force: true });
}

export interface ReceivedRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** A loopback HTTP endpoint whose reply the test chooses per request. */
export interface Receiver {
  url: string;
  requests: ReceivedRequest[];
  /** Status to answer with; 'hang' never answers. */
  respond: number | 'hang';
  /** Raw bytes to answer with (for the upload-from-URL source). */
  payload: Buffer;
  close(): Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
  const hanging = new Set<import('node:http').ServerResponse>();
  const receiver: Receiver = {
    url: '',
    requests: [],
    respond: 200,
    payload: Buffer.alloc(0),
    close: async () => {},
  };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      receiver.requests.push({
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks),
      });
      if (receiver.respond === 'hang') {
        hanging.add(res);
        return;
      }
      res.writeHead(receiver.respond, { 'content-length': receiver.payload.length });
      res.end(receiver.payload);
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  receiver.close = () =>
    new Promise<void>((done) => {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      server.close(() => done());
    });
  return receiver;
}

/** Polls `check` until it returns a value (not undefined), at most `ms` real milliseconds. */
export async function waitFor<T>(check: () => Promise<T | undefined>, ms = 5000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > until) throw new Error(`condition not met within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

export const IST_MINUTE = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}$/;
export const IST_SECOND = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;
export const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
export const MD5 = /^[0-9a-f]{32}$/;

/** `YYYY-MM-DD HH:MM[:SS]` in IST (UTC+05:30) of an instant. */
export function istOf(date: Date, seconds = false): string {
  const shifted = new Date(date.getTime() + 330 * 60_000).toISOString();
  return `${shifted.slice(0, 10)} ${shifted.slice(11, seconds ? 19 : 16)}`;
}

export function sortedKeys(value: object): string[] {
  return Object.keys(value).sort();
}

/** Seconds from the server's `now` to just past the next IST midnight. */
export function secondsToNextIstMidnight(nowIso: string, past = 5): number {
  const now = new Date(nowIso).getTime();
  const istMs = now + 330 * 60_000;
  const dayMs = 86_400_000;
  const nextIstMidnight = Math.floor(istMs / dayMs) * dayMs + dayMs;
  return Math.ceil((nextIstMidnight - istMs) / 1000) + past;
}

export interface UploadFields {
  bytes?: Buffer | string;
  filename?: string;
  bucket?: string;
  name?: string;
  hash?: string;
}

/** A multipart upload as the document describes it (fields file, bucket, name, hash). */
export function uploadForm(fields: UploadFields): FormData {
  const form = new FormData();
  if (fields.bucket !== undefined) form.append('bucket', fields.bucket);
  if (fields.name !== undefined) form.append('name', fields.name);
  if (fields.hash !== undefined) form.append('hash', fields.hash);
  if (fields.bytes !== undefined) {
    const bytes = typeof fields.bytes === 'string' ? Buffer.from(fields.bytes) : fields.bytes;
    form.append('file', new Blob([new Uint8Array(bytes)]), fields.filename ?? 'file.txt');
  }
  return form;
}

/** Sends the form as a FormData stream, the way fetch does by default. */
export function upload(server: RunningServer, key: string, fields: UploadFields): Promise<Reply> {
  return server.api('POST', '/files', key, uploadForm(fields));
}

/**
 * Sends the whole encoded form in one buffer with its Content-Length, so a server that answers before
 * reading the body still lets the reply be read (see streamed-upload checks for the streamed case).
 */
export async function uploadBuffered(
  server: RunningServer,
  key: string,
  fields: UploadFields,
): Promise<Reply> {
  const encoded = new Response(uploadForm(fields));
  const body = Buffer.from(await encoded.arrayBuffer());
  return call(`${server.ready.base_url}/api/assets/v1/files`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': encoded.headers.get('content-type')! },
    body,
  });
}
