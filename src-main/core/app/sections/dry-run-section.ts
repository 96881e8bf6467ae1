import { isAbsolute, parse } from 'node:path';
import { rentShares } from '../../../../src-shared/domain/rent-shares';
import { appError, err, ok } from '../../../../src-shared/errors';
import { dryRun } from '../../sync/dry-run/dry-run';
import { foldersStore } from '../../sync/state/folders-store';
import { syncedFiles } from '../../sync/state/synced-files';
import { bandwidthOf } from '../bandwidth-settings';
import type { AppContext } from '../context';
import { notConnected } from '../errors';
import type { Section } from '../section';

/**
 * The dry run from the UI (Add folder's Preview step, a watched folder's Preview) and each folder's
 * share of the daily rent for its card. Bandwidth and schedule: read from the settings (the same
 * `bandwidthOf` the engine is built with); without them the report says it assumed none.
 */
export function dryRunSection(ctx: AppContext): Section {
  return {
    name: 'dry-run',
    handlers: {
      'sync.preview': async (r) => {
        const live = ctx.session.live;
        if (!live) return notConnected();
        // A relative path would be read from the core's working folder, which means nothing to the user;
        // a whole disk is not a folder to preview (it would read every file on it).
        if (!isAbsolute(r.path) || parse(r.path).root === r.path)
          return err(appError('FOLDER-INVALID', `Give the full path of a folder (not "${r.path}").`));
        const settings = ctx.settings.get();
        const limit = bandwidthOf(settings).limit;
        const report = await dryRun({
          client: live.client,
          db: ctx.db,
          path: r.path,
          ...(r.bucket !== undefined ? { bucket: r.bucket } : {}),
          ...(r.mode !== undefined ? { mode: r.mode } : {}),
          ...(r.followOutsideLinks !== undefined ? { followOutsideLinks: r.followOutsideLinks } : {}),
          dedupe: settings.contentDedupe,
          limits: {
            requestsPerMinute: settings.requestsPerMinute,
            // The single limit when it is a rate; a weekly timetable is named, and its hours are not
            // forecast (the report says which limit it counted).
            bandwidthBytesPerSecond: limit.kind === 'rate' ? limit.bytesPerSecond : null,
            schedule: settings.bwSchedule.trim() ? `weekly schedule "${settings.bwSchedule.trim()}"` : null,
          },
          serviceNow: () => ctx.clock.now(),
        });
        return report;
      },
      'sync.folderRent': async () => {
        const source = ctx.cacheSource();
        const me = source ? ctx.cache.getAccount(source)?.value : null;
        const bytes = new Map(
          syncedFiles(ctx.db)
            .liveBytesByFolder()
            .map((x) => [x.folderId, x.bytes]),
        );
        const folders = foldersStore(ctx.db).list();
        // One split, from the same /me as the Account view's rent: the shares add up to it.
        const shares = rentShares({
          dailyRentPaise: me?.usage.daily_rent_paise ?? 0,
          accountBytes: me?.usage.bytes_used ?? 0,
          folders: folders.map((f) => ({ id: f.id, bytes: bytes.get(f.id) ?? 0 })),
        });
        const paise = new Map(shares.folders.map((f) => [f.id, f.paise]));
        return ok({
          folders: folders.map((f) => ({
            folderId: f.id,
            path: f.path,
            liveBytes: bytes.get(f.id) ?? 0,
            dailySharePaise: paise.get(f.id) ?? 0,
          })),
          other: { bytes: shares.other.bytes, dailySharePaise: shares.other.paise },
          accountBytes: me ? me.usage.bytes_used : null,
          dailyRentPaise: me ? me.usage.daily_rent_paise : null,
          rounded: shares.rounded,
        });
      },
    },
  };
}
