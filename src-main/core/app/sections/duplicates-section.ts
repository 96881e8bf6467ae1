import type { DuplicateGroup as ContractGroup } from '../../../../src-shared/contract';
import { appError, err, ok } from '../../../../src-shared/errors';
import type { DuplicateGroup, SyncEngine } from '../../sync/engine';
import { notConnected } from '../errors';
import type { Section } from '../section';
import type { SyncRuntime } from '../sync-runtime';

/**
 * Copies of the same file on the server (made by another machine, an older install, or an upload
 * behind the app's back). The page only names groups of the last scan: the ids to delete always
 * come from the core's own scan, so a stale or forged request cannot delete a file it never listed.
 */
export function duplicatesSection(runtime: SyncRuntime): Section {
  let last: { engine: SyncEngine; groups: DuplicateGroup[] } | null = null;

  return {
    name: 'duplicates',
    handlers: {
      'sync.duplicates.find': async () => {
        await runtime.ready();
        const engine = runtime.engine;
        if (!engine) return notConnected();
        const found = await engine.findDuplicates();
        if (!found.ok) return err(appError(found.error.code, found.error.message));
        last = { engine, groups: found.value };
        return ok({ groups: found.value.map(toContract), checkedAt: Date.now() });
      },
      'sync.duplicates.remove': async (r) => {
        await runtime.ready();
        const engine = runtime.engine;
        if (!engine) return notConnected();
        const scanned = last?.engine === engine ? last.groups : [];
        const chosen = r.keepIds.map((id) => scanned.find((g) => g.keepId === id));
        const missing = r.keepIds.filter((_, i) => !chosen[i]);
        if (missing.length)
          return err(
            appError(
              'DUPLICATES-STALE',
              `No duplicate group keeps file ${missing.join(', ')} in the last check; check again before removing.`,
            ),
          );
        const groups = chosen.filter((g): g is DuplicateGroup => !!g);
        const queued = engine.removeDuplicates(groups);
        // The deletions are durable in the engine's trash; each one sent takes its file out of the
        // remote index (the client's onRemote), so the Files view follows as they go.
        last = { engine, groups: scanned.filter((g) => !groups.includes(g)) };
        runtime.emitState();
        return ok({ queued });
      },
    },
  };
}

function toContract(g: DuplicateGroup): ContractGroup {
  return {
    bucket: g.bucket,
    name: g.name,
    sizeBytes: g.size,
    md5: g.md5,
    keepId: g.keepId,
    extraIds: [...g.extraIds],
  };
}
