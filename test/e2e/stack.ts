import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Browser, chromium } from 'playwright-core';
import { type AppService, createAppService } from '../../src-main/core/app/app-service';
import type { EngineTunables } from '../../src-main/core/app/sync-runtime';
import { startHeadlessShell } from '../../src-main/headless/server';
import { RENDERER_OUT } from '../../src-main/shared-node/project-paths';
import { buildRenderer } from '../../src-main/shared-node/renderer-build';
import { adminCall, call } from '../support/reference-server';

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
  // Each stack builds its own copy: test files run in parallel and one build must not empty another's.
  const rendererDir = opts.build === false ? RENDERER_OUT : join(root, 'renderer');
  if (opts.build !== false) await buildRenderer(rendererDir);
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
