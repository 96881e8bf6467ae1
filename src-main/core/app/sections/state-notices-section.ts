import type { OfficeStatus, SyncOverview } from '../../../../src-shared/contract';
import type { KbBotView } from '../../../../src-shared/contract/kb';
import type { ReceiverView, RelayView } from '../../../../src-shared/contract/leads';
import { appStatusOf } from '../../../../src-shared/domain/status-facts';
import { noticeTracker } from '../../../../src-shared/domain/status-notices';
import type { AppContext } from '../context';
import type { Section } from '../section';

/**
 * The notifications of the app's state (issue 31): from the same events the shells draw the sidebar
 * and the tray from (the overview, the knowledge bots, the office, the leads' relay and receiver), the
 * one status model, and a `notify` when what its word speaks of becomes worth one (syncing stopped, the
 * wallet or the key, offline with files waiting, files that need attention, the leads' link down), in
 * its own words (src-shared/domain/status-notices.ts). A folder in sync is the sync runtime's.
 */
export function stateNoticesSection(ctx: AppContext): Section {
  let overview: SyncOverview | null = null;
  let bots: readonly KbBotView[] = [];
  let office: OfficeStatus | null = null;
  let relay: RelayView | null = null;
  let receiver: ReceiverView | null = null;
  const notices = noticeTracker();
  let unsubscribe: (() => void) | null = null;
  const look = () => {
    const notice = notices(appStatusOf(overview, { bots, office, relay, receiver }));
    if (notice) ctx.bus.emit('notify', notice);
  };
  return {
    name: 'state-notices',
    handlers: {},
    start() {
      unsubscribe = ctx.bus.subscribe((e) => {
        if (e.event === 'sync.changed') overview = e.payload;
        else if (e.event === 'kb.botsChanged') bots = e.payload.bots;
        else if (e.event === 'kb.changed')
          bots = bots.map((b) => (b.id === e.payload.bot.id ? e.payload.bot : b));
        else if (e.event === 'office.changed') office = e.payload;
        else if (e.event === 'leads.relay') relay = e.payload;
        else if (e.event === 'leads.receiver') receiver = e.payload;
        else return;
        look();
      });
    },
    close() {
      unsubscribe?.();
    },
  };
}
