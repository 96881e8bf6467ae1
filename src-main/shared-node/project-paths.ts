import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The project root (where package.json is), found from this file so it works from any cwd. */
export const PROJECT_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const RENDERER_OUT = join(PROJECT_ROOT, 'out', 'renderer');
export const ELECTRON_OUT = join(PROJECT_ROOT, 'out', 'electron');

export const rendererBuilt = () => existsSync(join(RENDERER_OUT, 'index.html'));
export const electronBuilt = () =>
  existsSync(join(ELECTRON_OUT, 'main.cjs')) && existsSync(join(ELECTRON_OUT, 'preload.cjs'));
