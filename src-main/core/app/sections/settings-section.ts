import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { appError, err, ok } from '../../../../src-shared/errors';
import { SANDBOX_CACHE_SOURCE } from '../../service/connection';
import { budgetFor } from '../../service/request-budget';
import { bandwidthOf } from '../bandwidth-settings';
import type { AppContext } from '../context';
import type { Section } from '../section';
import type { SyncRuntime } from '../sync-runtime';

export function settingsSection(ctx: AppContext, runtime: SyncRuntime): Section {
  return {
    name: 'settings',
    handlers: {
      'settings.get': async () => ok(ctx.settings.get()),
      'settings.update': async (patch) => {
        const before = ctx.settings.get();
        const next = ctx.settings.update(patch);
        const live = ctx.session.live;
        if (live && next.requestsPerMinute !== before.requestsPerMinute)
          budgetFor(live.connection.baseUrl, 'files', { perMinute: next.requestsPerMinute });
        // The engine takes its concurrency when it is built. Rebuilt in the background, as on a connection
        // change: its start waits on the network and the request budget, which a settings save must not.
        if (live && next.concurrency !== before.concurrency)
          runtime.restart().catch((e: unknown) => ctx.log(`the sync engine did not restart: ${String(e)}`));
        const bandwidthKeys = ['bwlimit', 'bwSchedule', 'bwScheduleLimit', 'bwScheduleZone'] as const;
        if (bandwidthKeys.some((k) => next[k] !== before[k])) runtime.engine?.setBandwidth(bandwidthOf(next));
        ctx.bus.emit('settings.changed', next);
        runtime.emitState();
        return ok(next);
      },
      'settings.resetSandbox': async () => {
        const live = ctx.session.live;
        // A sandbox chosen but not running (its port held by another program) may be reset too: a reset
        // is the way to a new port.
        if (live ? live.connection.kind !== 'sandbox' : !ctx.session.sandboxChosen())
          return err(
            appError(
              'NOT-SANDBOX',
              'Only the local sandbox can be reset; this app is connected to an account.',
            ),
          );
        const running = live?.connection;
        if (running && !running.startedHere)
          return err(
            appError(
              'SANDBOX-IN-USE',
              `The sandbox is run by another assets-sync process${running.ownerPid ? ` (process ${running.ownerPid})` : ''} on this data folder. Reset it once that has ended.`,
            ),
          );
        await runtime.stop();
        await ctx.session.suspend();
        await rm(join(ctx.dataDir, 'sandbox'), { recursive: true, force: true });
        ctx.cache.clear(SANDBOX_CACHE_SOURCE);
        const reopened = await ctx.session.openSandbox();
        if (!reopened.ok) return reopened;
        ctx.log('sandbox reset');
        ctx.bus.emit('session.changed', reopened.value);
        return ok({ done: true as const });
      },
    },
  };
}
