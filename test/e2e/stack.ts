import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Browser, type BrowserContextOptions, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, inject } from 'vitest';
import {
  type AppService,
  type AppServiceOptions,
  createAppService,
} from '../../src-main/core/app/app-service';
import type { EngineTunables } from '../../src-main/core/app/sync-runtime';
import { startHeadlessShell } from '../../src-main/headless/server';
import { RENDERER_OUT } from '../../src-main/shared-node/project-paths';
import { buildRenderer } from '../../src-main/shared-node/renderer-build';
import type { AppError, Result } from '../../src-shared/errors';
import { adminCall, call } from '../support/reference-server';
import { testKeychain } from '../support/secrets';
import { untilEvent } from '../support/wait';

export const CHROMIUM_FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

export const SCREENSHOTS = join(import.meta.dirname, '..', '..', 'test-artifacts', 'screenshots');

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: CHROMIUM_FLAGS });
}

/** A real core (own data dir, real SQLite, sandbox reference server on a real port) behind the headless shell. */
export async function startStack(opts: { build?: boolean; engine?: EngineTunables; office?: boolean } = {}) {
  mkdirSync(SCREENSHOTS, { recursive: true });
  const root = mkdtempSync(join(tmpdir(), 'assets-e2e-'));
  const dataDir = join(root, 'data');
  const rendererDir = opts.build === false ? RENDERER_OUT : inject('rendererDir');
  const app: AppService = await createAppService({
    dataDir,
    engine: opts.engine ?? { stabilityMs: 150, pausePollMs: 400 },
    log: () => {},
    // A desk of the office (docs/office.md), as the shells make it; off unless a test is about the office.
    ...(opts.office ? { office: true } : {}),
  });
  const shell = await startHeadlessShell({ core: app, rendererDir, dropDir: join(dataDir, 'incoming') });
  return {
    root,
    dataDir,
    app,
    shell,
    /** The sandbox's admin surface (reference-server.md), for moving money and time. */
    async admin(method: string, path: string, body?: unknown): Promise<unknown> {
      const live = app.context.session.live;
      if (!live?.connection.adminToken) throw new Error('no sandbox is running');
      const r = await adminCall(live.connection.baseUrl, live.connection.adminToken, method, path, body);
      if (r.status < 200 || r.status > 299)
        throw new Error(`admin ${method} ${path}: ${r.status} ${JSON.stringify(r.json)}`);
      return r.json;
    },
    /** The file API with the sandbox's key, behind the app's back (another machine, another tool). */
    async fileApi(method: string, path: string, body?: FormData): Promise<{ status: number; json: unknown }> {
      const live = app.context.session.live;
      if (!live) throw new Error('no connection');
      const { status, json } = await call(`${live.connection.baseUrl}/api/assets/v1${path}`, {
        method,
        headers: { authorization: `Bearer ${live.connection.apiKey}` },
        ...(body ? { body } : {}),
      });
      return { status, json };
    },
    async close() {
      await shell.close();
      await app.close();
      rmSync(root, { recursive: true, force: true });
    },
  };
}
export type Stack = Awaited<ReturnType<typeof startStack>>;

/**
 * An e2e test's app in Chromium, made before the describe's tests and removed after them: a temp folder,
 * the run's one renderer build (test/support/renderer-once.ts), the real core on a keychain service of its own (`options` added to its
 * own), the headless shell, and Chromium. The describe makes its pages. `build.renderCounts` makes a
 * build of its own with the render counter on (src-renderer/lib/render-count.tsx). `restart()` closes app and shell
 * and opens them again over the same data. A describe's own afterAll hooks run before these (vitest runs
 * them last-registered first).
 */
export function browserApp(
  prefix: string,
  options: Partial<AppServiceOptions> = {},
  build: { renderCounts?: boolean } = {},
) {
  const root = mkdtempSync(join(tmpdir(), prefix));
  const rendererDir = build.renderCounts ? join(root, 'renderer') : inject('rendererDir');
  const f = {
    root,
    dataDir: join(root, 'data'),
    keychain: testKeychain(),
    app: undefined as unknown as AppService,
    shell: undefined as unknown as Awaited<ReturnType<typeof startHeadlessShell>>,
    browser: undefined as unknown as Browser,
    async open() {
      f.app = await createAppService({
        dataDir: f.dataDir,
        secrets: f.keychain,
        env: {},
        log: () => {},
        ...options,
      });
      f.shell = await startHeadlessShell({ core: f.app, rendererDir, dropDir: join(root, 'incoming') });
    },
    async restart() {
      await f.shell.close();
      await f.app.close();
      await f.open();
    },
    /** The connection the app is on (the sandbox's, until an account is connected). */
    live: () => f.app.context.session.live!.connection,
    /** The sandbox's admin surface; a reply that is not 2xx throws with the server's answer. */
    async admin(method: string, path: string, body?: unknown): Promise<Record<string, unknown>> {
      const r = await adminCall(f.live().baseUrl, f.live().adminToken!, method, path, body);
      if (r.status > 299) throw new Error(`admin ${method} ${path}: ${r.status} ${JSON.stringify(r.json)}`);
      return r.json as Record<string, unknown>;
    },
    /** The file API with the connection's key, behind the app's back. */
    api: (method: string, path: string, body?: FormData) =>
      call(`${f.live().baseUrl}/api/assets/v1${path}`, {
        method,
        headers: { authorization: `Bearer ${f.live().apiKey}` },
        ...(body ? { body } : {}),
      }),
    /** Clicks a view in the sidebar. */
    nav: (page: Page, label: string) =>
      page.getByRole('navigation').getByRole('button', { name: label, exact: true }).click(),
    /** A new page on the app, past the first run into the sandbox (Folders shown); page errors logged. */
    async sandboxPage(options?: BrowserContextOptions): Promise<Page> {
      const page = await f.browser.newPage(options);
      page.on('pageerror', (e) => console.error('page error:', e.message));
      await page.goto(f.shell.url);
      await page.getByRole('button', { name: 'Try the local sandbox' }).click();
      await page.getByRole('heading', { name: 'Folders', exact: true, level: 1 }).waitFor();
      return page;
    },
  };
  beforeAll(async () => {
    if (build.renderCounts) await buildRenderer(rendererDir, build);
    mkdirSync(SCREENSHOTS, { recursive: true });
    await f.open();
    f.browser = await launchChromium();
  });
  afterAll(async () => {
    await f.browser?.close();
    await f.shell?.close();
    await f.app?.close();
    f.keychain.cleanup();
    rmSync(root, { recursive: true, force: true });
  });
  return f;
}

/** A contract call's value, or a throw naming the code: the set-up of a test that is not about the call. */
export async function must<T>(r: Promise<Result<T, AppError>>): Promise<T> {
  const done = await r;
  if (!done.ok) throw new Error(`${done.error.code}: ${done.error.message}`);
  return done.value;
}

/** A watched folder `name` under `root` holding a.txt, b.txt and c.txt, once the app has them live. */
export async function syncedFolder(app: AppService, root: string, name: string): Promise<string> {
  const dir = join(root, name);
  mkdirSync(dir);
  for (const n of ['a.txt', 'b.txt', 'c.txt']) writeFileSync(join(dir, n), `${n}\n`);
  await must(app.call('sync.folders.add', { path: dir, bucket: name }));
  await untilEvent(app, 'the folder in sync', async () => {
    const o = await must(app.call('sync.overview', {}));
    return o.folders[0]?.counts.live === 3 && o.folders[0].counts.pending === 0;
  });
  return dir;
}

/**
 * Holds back the core's replies to the named contract calls on this page (installed before the page
 * loads): `held` counts them, `release()` lets them through and stops holding, and `refuse(code)` (or
 * `answer(result)`) answers each held call with that instead. How a test sees what the view shows while the core is slow.
 */
export async function holdReplies(page: Page, names: readonly string[]) {
  const held: { id: number; send(): void }[] = [];
  let holding = true;
  let reply: ((raw: string) => void) | null = null;
  await page.routeWebSocket(/\/ws$/, (ws) => {
    const server = ws.connectToServer();
    const ids = new Set<number>();
    reply = (raw) => ws.send(raw);
    ws.onMessage((m) => {
      const msg = JSON.parse(String(m)) as { t?: string; id?: number; name?: string };
      if (msg.t === 'call' && msg.id !== undefined && names.includes(msg.name ?? '')) ids.add(msg.id);
      server.send(m);
    });
    server.onMessage((m) => {
      const msg = JSON.parse(String(m)) as { t?: string; id?: number };
      if (holding && msg.t === 'reply' && msg.id !== undefined && ids.has(msg.id))
        held.push({ id: msg.id, send: () => ws.send(m) });
      else ws.send(m);
    });
  });
  return {
    held: () => held.length,
    release() {
      holding = false;
      for (const h of held.splice(0)) h.send();
    },
    /** Answers each held call with `result` instead of the core's (an accepted call whose value differs). */
    answer(result: Result<unknown, AppError>) {
      holding = false;
      for (const h of held.splice(0)) reply?.(JSON.stringify({ t: 'reply', id: h.id, result }));
    },
    refuse(code: string, message: string) {
      this.answer({ ok: false, error: { code, message } });
    },
  };
}
