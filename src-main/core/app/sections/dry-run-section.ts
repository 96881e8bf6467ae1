import { isAbsolute, parse } from 'node:path';
import { appError, err, ok } from '../../../../src-shared/errors';
import { dryRun } from '../../sync/dry-run/dry-run';
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
        const rows = syncedFiles(ctx.db).liveBytesByFolder();
        const total = me?.usage.bytes_used ?? 0;
        const rent = me?.usage.daily_rent_paise ?? null;
        return ok({
          folders: rows.map((x) => ({
            folderId: x.folderId,
            liveBytes: x.bytes,
            dailySharePaise: rent && total > 0 ? Math.floor((rent * Math.min(x.bytes, total)) / total) : 0,
          })),
          dailyRentPaise: rent,
        });
      },
    },
  };
}
