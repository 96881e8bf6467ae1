import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { electronBuilt, PROJECT_ROOT, rendererBuilt } from '../shared-node/project-paths';
import { buildRenderer } from '../shared-node/renderer-build';
import { buildElectron } from './build';

/**
 * Where the electron package keeps its binary, without loading the package: `require('electron')`
 * downloads the binary when it is missing, and this app reaches no network on its own. Setting
 * ASSETS_SYNC_FETCH_ELECTRON=1 allows that download (first launch on a connected machine).
 */
export function electronBinary(): string | null {
  let pkgDir: string;
  try {
    pkgDir = dirname(createRequire(join(PROJECT_ROOT, 'package.json')).resolve('electron/package.json'));
  } catch {
    return null;
  }
  const pathFile = join(pkgDir, 'path.txt');
  if (!existsSync(pathFile)) return null;
  const bin = join(pkgDir, 'dist', readFileSync(pathFile, 'utf8').trim());
  return existsSync(bin) ? bin : null;
}

async function fetchElectron(): Promise<string | null> {
  const require = createRequire(join(PROJECT_ROOT, 'package.json'));
  try {
    return require('electron') as string;
  } catch {
    return null;
  }
}

/** `npm start`: Electron where its binary is at hand, else the headless shell in the browser. */
export async function run(argv: string[]): Promise<number> {
  let bin = electronBinary();
  if (!bin && process.env.ASSETS_SYNC_FETCH_ELECTRON === '1') bin = await fetchElectron();
  if (!bin) {
    console.log(
      'Electron is not available here (no binary in node_modules/electron; ASSETS_SYNC_FETCH_ELECTRON=1 allows fetching it): running the headless shell instead.',
    );
    const web = await import('../headless/main');
    return web.run(argv);
  }
  if (!rendererBuilt()) await buildRenderer();
  if (!electronBuilt()) await buildElectron();
  const child = spawn(bin, [PROJECT_ROOT, ...argv], { stdio: 'inherit' });
  return new Promise((resolve) => child.on('exit', (code) => resolve(code ?? 0)));
}
