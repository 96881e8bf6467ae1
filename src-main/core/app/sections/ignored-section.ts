import { appError, err, ok } from '../../../../src-shared/errors';
import { notConnected } from '../errors';
import type { Section } from '../section';
import type { SyncRuntime } from '../sync-runtime';

/** What each folder's ignore rules left out at its last scan (local/ignored-files.ts). */
export function ignoredSection(runtime: SyncRuntime): Section {
  return {
    name: 'ignored',
    handlers: {
      'sync.folders.ignored': async (r) => {
        await runtime.ready();
        const engine = runtime.engine;
        if (!engine) return notConnected();
        if (!engine.listFolders().some((f) => f.id === r.id))
          return err(appError('FOLDER-UNKNOWN', `No synced folder has id ${r.id}.`));
        const list = engine.ignoredIn(r.id);
        return ok(list ?? { count: 0, examples: [], scannedAt: null });
      },
    },
  };
}
