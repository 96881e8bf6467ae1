#!/usr/bin/env node
// The CLI entry. It runs the esbuild bundle of the TypeScript sources (out/cli), built again first
// when a source is newer, so a change runs at once with no build step to remember. The bundle, not
// tsx's loader, because each process then starts faster and idles about 30 MB smaller (the
// benchmarks' memory targets count). Should the bundle fail to build, the sources run through tsx.
// ASSETS_SYNC_TSX=1 asks for tsx (stack traces with source lines).
import { pathToFileURL } from 'node:url';
import { buildCliBundle, bundleIsFresh, cliBundle } from '../src-main/launcher/cli-bundle.mjs';

async function bundleReady() {
  if (process.env.ASSETS_SYNC_TSX === '1') return false;
  try {
    if (!bundleIsFresh()) await buildCliBundle();
    return true;
  } catch (error) {
    // stderr, one line: stdout carries only what the command prints (the server's ready line is parsed).
    const reason = (error instanceof Error ? error.message : String(error)).split('\n')[0];
    process.stderr.write(
      `assets-sync: running the sources through tsx (the CLI bundle could not be built: ${reason})\n`,
    );
    return false;
  }
}

if (await bundleReady()) {
  await import(pathToFileURL(cliBundle()).href);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import('../src-main/cli/main.ts');
}
