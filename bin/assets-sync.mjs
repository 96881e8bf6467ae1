#!/usr/bin/env node
// The CLI entry. It runs the esbuild bundle of the TypeScript sources (out/cli), built again first
// when a source is newer, so a change runs at once with no build step to remember. The bundle, not
// tsx's loader, because each process then starts faster and idles about 30 MB smaller (the
// benchmarks' memory targets count). Should the bundle fail to build, the sources run through tsx.
// ASSETS_SYNC_TSX=1 asks for tsx (stack traces with source lines).
// `sync DIR` first starts find's walk of DIR, which runs while the rest loads (early-find.mjs).
import { runEntry } from '../src-main/launcher/cli-bundle.mjs';
import { startEarlyFindFor } from '../src-main/launcher/early-find.mjs';

startEarlyFindFor(process.argv.slice(2));
await runEntry('assets-sync');
