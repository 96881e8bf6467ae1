#!/usr/bin/env node
// `npm run bench:<name>` and `npm run soak`: the harnesses of tools/main.ts, run like the CLI
// (bin/assets-sync.mjs): from the bundle in out/cli, rebuilt when a source is newer, else through tsx.
import { runEntry } from '../src-main/launcher/cli-bundle.mjs';

await runEntry('tools');
