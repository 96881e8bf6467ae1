import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createAppService, defaultDataDir } from '../core';
import { makePrivateDir } from '../shared-node/private-files';
import { RENDERER_OUT, rendererBuilt } from '../shared-node/project-paths';
import { buildRenderer } from '../shared-node/renderer-build';
import { startHeadlessShell } from './server';

const USAGE = `assets-sync web [--port N] [--data-dir DIR] [--base-url URL]

Serves the app on http://127.0.0.1 only, for a browser on this machine (or through an SSH tunnel).
Prints the address to open; it carries a random token that changes at every start.`;

/** `assets-sync web` / `npm run web`: the core plus the headless shell, until Ctrl-C. */
export async function run(argv: string[]): Promise<number> {
  let values: { port?: string; 'data-dir'?: string; 'base-url'?: string; help?: boolean };
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        port: { type: 'string' },
        'data-dir': { type: 'string' },
        'base-url': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
    }));
  } catch (e) {
    console.error(`assets-sync web: ${(e as Error).message}\n\n${USAGE}`);
    return 2;
  }
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  const port = values.port === undefined ? 0 : Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    console.error(`assets-sync web: --port must be a whole number from 0 to 65535, not "${values.port}"`);
    return 2;
  }
  const handle = await startWeb({
    dataDir: values['data-dir'] ?? defaultDataDir(),
    port,
    ...(values['base-url'] ? { baseUrl: values['base-url'] } : {}),
  });
  console.log(`Assets Sync is running. Open ${handle.url}`);
  await new Promise<void>((resolve) => {
    const stop = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
  await handle.close();
  return 0;
}

export async function startWeb(o: { dataDir: string; port?: number; baseUrl?: string }) {
  if (!rendererBuilt()) {
    console.error('assets-sync: building the UI once (vite build)…');
    await buildRenderer();
  }
  const app = await createAppService({
    dataDir: o.dataDir,
    office: true,
    ...(o.baseUrl ? { baseUrl: o.baseUrl } : {}),
  });
  const dropDir = join(o.dataDir, 'incoming');
  makePrivateDir(dropDir);
  const shell = await startHeadlessShell({
    core: app,
    rendererDir: RENDERER_OUT,
    dropDir,
    ...(o.port ? { port: o.port } : {}),
  });
  return {
    url: shell.url,
    async close() {
      await shell.close();
      await app.close();
    },
  };
}
