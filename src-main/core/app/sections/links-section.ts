import { appError, err, ok } from '../../../../src-shared/errors';
import type { KbService } from '../../kb/kb-service';
import { kbServiceOf } from '../../kb/sections';
import { createLinkIntegrity, type EntryLinks, type EntryText } from '../../remote-index/link-integrity';
import { createRemoteIndex } from '../../remote-index/remote-index';
import { serviceIdentity } from '../../sync/account/service-identity';
import { syncedFiles } from '../../sync/state/synced-files';
import type { AppContext } from '../context';
import type { Section } from '../section';
import { watchMirrorDeletes } from './mirror-delete-links';

/** Every entry here that is not deleted, of one bot or of all. */
function entriesOf(kb: KbService, botId?: number): EntryText[] {
  const ids = botId !== undefined ? [botId] : kb.bots().map((b) => b.id);
  const out: EntryText[] = [];
  for (const id of ids) {
    const s = kb.snapshot(id);
    if (s.ok) for (const e of s.value.entries) if (!e.deleted) out.push(e);
  }
  return out;
}

/**
 * Knowledge-entry link integrity, wired: the current account's remote index (kept by the follower
 * and the Files view's refreshes) and the engine's rows answer, without a request.
 */
export function linksSection(ctx: AppContext): Section {
  const remote = createRemoteIndex(ctx.db);
  const kb = kbServiceOf(ctx);
  const rows = syncedFiles(ctx.db);

  /** The link check of the current account; null before the index has seen it. */
  function integrity() {
    const live = ctx.session.live;
    if (!live) return null;
    const account = remote.lastAccount(serviceIdentity(live.connection, ctx.dataDir));
    if (!account) return null;
    return createLinkIntegrity({ index: remote.forAccount(account), syncedFiles: () => rows.liveFiles() });
  }

  /**
   * The check, with what the sync rows know on top: a URL whose remote copy this app deleted after a
   * mirror folder's local delete is GONE even while the index is not complete (UNKNOWN otherwise).
   */
  function check(botId?: number): EntryLinks[] {
    const found = integrity()?.check(entriesOf(kb, botId)) ?? [];
    if (!found.some((e) => e.links.some((l) => l.status === 'UNKNOWN'))) return found;
    const gone = rows.mirrorDeletedUrls();
    return found.map((e) => ({
      ...e,
      links: e.links.map((l) =>
        l.status === 'UNKNOWN' && gone.has(l.url) ? { ...l, status: 'GONE' as const } : l,
      ),
    }));
  }

  let stopWatching: (() => void) | null = null;

  return {
    name: 'links',
    handlers: {
      'links.check': async ({ botId }) => ok({ entries: check(botId) }),

      'links.fix': async ({ entryId }) => {
        const li = integrity();
        const entry = entriesOf(kb).find((e) => e.id === entryId);
        if (!entry)
          return err(appError('NOT-FOUND', `There is no entry ${entryId} here (it may have been deleted).`));
        const fixed = li?.fix(entry) ?? null;
        if (!fixed)
          return err(
            appError(
              'NOTHING-TO-REPLACE',
              `"${entry.title}" cites no file that has a newer version to link to.`,
            ),
          );
        // An edit like any other: stored here first, sent by the entry outbox when online.
        return kb.edit(entryId, fixed);
      },
    },
    start() {
      stopWatching = watchMirrorDeletes(ctx, () => entriesOf(kb));
    },
    close() {
      stopWatching?.();
    },
  };
}
