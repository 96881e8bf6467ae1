import { copyFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ELECTRON_OUT, PROJECT_ROOT, RENDERER_OUT } from '../shared-node/project-paths';
import { buildRenderer } from '../shared-node/renderer-build';
import { buildCliBundle, cliOutDir } from './cli-bundle.mjs';

/**
 * The Electron main process and preload bundled with esbuild into out/electron as CommonJS
 * (Electron's sandboxed preload must be one CommonJS file). Native modules and electron stay external.
 */
export async function buildElectron(): Promise<void> {
  const esbuild = await import('esbuild');
  const common = {
    bundle: true,
    platform: 'node' as const,
    format: 'cjs' as const,
    target: 'node22',
    sourcemap: false,
    logLevel: 'warning' as const,
    external: [
      'electron',
      'better-sqlite3',
      '@parcel/watcher',
      '@napi-rs/keyring',
      'fsevents',
      'vite',
      'esbuild',
    ],
  };
  await esbuild.build({
    ...common,
    entryPoints: [join(PROJECT_ROOT, 'src-main', 'electron', 'main.ts')],
    outfile: join(ELECTRON_OUT, 'main.cjs'),
    // import.meta.url has no CommonJS twin; the bundle gets it from __filename.
    define: { 'import.meta.url': 'importMetaUrl' },
    banner: { js: "const importMetaUrl = require('node:url').pathToFileURL(__filename).href;" },
  });
  await esbuild.build({
    ...common,
    entryPoints: [join(PROJECT_ROOT, 'src-main', 'electron', 'preload.ts')],
    outfile: join(ELECTRON_OUT, 'preload.cjs'),
  });
  // md5WorkerUrl() resolves next to the code that asks for it: next to main.cjs here.
  await copyFile(
    join(PROJECT_ROOT, 'src-main', 'shared-node', 'md5', 'md5-worker.mjs'),
    join(ELECTRON_OUT, 'md5-worker.mjs'),
  );
}

/** `npm run build`. */
export async function run(): Promise<number> {
  await buildRenderer();
  console.log(`renderer -> ${RENDERER_OUT}`);
  await buildElectron();
  console.log(`electron -> ${ELECTRON_OUT}`);
  // bin/assets-sync.mjs builds it on demand too; here so that out/ is complete after a build.
  await buildCliBundle();
  console.log(`cli -> ${cliOutDir()}`);
  return 0;
}
