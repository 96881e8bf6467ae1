import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createDispatcher } from '../../src-main/core/app/dispatcher';
import { createEventBus } from '../../src-main/core/app/event-bus';
import type { HeadlessLimits } from '../../src-main/headless/limits';
import { type HeadlessShellOptions, startHeadlessShell } from '../../src-main/headless/server';
import { DEFAULT_SETTINGS } from '../../src-shared/contract';
import { ok } from '../../src-shared/errors';

/**
 * A core for transport tests: the real dispatcher and event bus with two small sections, settings.get
 * and files.uploadPaths (each call's request kept in `uploads`), so a test is about the shell alone.
 */
export function transportCore() {
  const bus = createEventBus();
  const uploads: { paths: string[]; bucket: string }[] = [];
  const call = createDispatcher([
    {
      name: 't',
      handlers: {
        'settings.get': async () => ok(DEFAULT_SETTINGS),
        'files.uploadPaths': async (r) => {
          uploads.push(r);
          return ok({ queued: r.paths.length });
        },
      },
    },
  ]);
  return { bus, uploads, core: { call, subscribe: bus.subscribe } };
}

/** The headless shell on `core`, serving a one-page renderer from a temp folder; `close` removes it. */
export async function startTestShell(
  prefix: string,
  core: HeadlessShellOptions['core'],
  limits?: Partial<HeadlessLimits>,
) {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  mkdirSync(join(dir, 'renderer'));
  writeFileSync(join(dir, 'renderer', 'index.html'), '<!doctype html><title>t</title>');
  const shell = await startHeadlessShell({
    core,
    rendererDir: join(dir, 'renderer'),
    dropDir: join(dir, 'incoming'),
    ...(limits ? { limits } : {}),
  });
  return {
    shell,
    dir,
    port: Number(new URL(shell.origin).port),
    async close() {
      await shell.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
