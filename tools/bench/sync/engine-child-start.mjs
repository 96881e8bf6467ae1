// The benchmark's engine child (engine-child.ts) started the way bin/assets-sync.mjs starts `sync DIR`:
// find's walk of the folder first (src-main/launcher/early-find.mjs), then the bundle, built again
// first when a source is newer (runEntry). harness.ts runs this file when the benchmark itself runs
// from the bundle; the process's start is what the restart figure measures.

import { runEntry } from '../../../src-main/launcher/cli-bundle.mjs';
import { startEarlyFind } from '../../../src-main/shared-node/find-run.mjs';

const folder = JSON.parse(process.argv[2] ?? '{}').folder;
if (typeof folder === 'string') startEarlyFind(folder);
await runEntry('engine-child');
