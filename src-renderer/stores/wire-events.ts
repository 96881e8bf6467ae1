import type { CoreApi } from '../../src-shared/contract';
import { applyImportProgress } from '../views/files/import-progress';
import { useIndexView } from '../views/files/index-store';
import { applyKbBots, applyKbSnapshot } from '../views/kb/kb-store';
import { applyLeadChanged, applyLeadsArrived, applyNewLead, applyReceiver } from '../views/leads/leads-store';
import { applyRelay } from '../views/leads/relay/relay-store';
import { useOffice } from '../views/office/office-store';
import { useAccount } from './account-store';
import { stateChange, useAnnouncer } from './announcer';
import { appStatusNow } from './app-status';
import { useClock } from './clock-store';
import { showRunwayNotice } from './runway-notice';
import { useSync } from './sync-store';
import { useUi } from './ui-store';

const announce = (text: string) => useAnnouncer.getState().announce(text);

/**
 * Feeds every store from the core's events, in one place: views never poll and no store subscribes
 * by itself (a store subscribing on first use would miss what came before, and a second one would
 * feed it twice).
 */
export function wireEvents(core: CoreApi): () => void {
  // The OS says the network is back: the knowledge entries' outbox tries at once, not at its next retry.
  const online = () => void core.call('kb.syncNow', {});
  window.addEventListener('online', online);
  // The window comes back (a top-up made in the browser, a laptop opened): the core asks the service
  // at once whether it answers and whether uploads may resume, instead of waiting for its next try.
  const recheck = () => {
    if (document.visibilityState === 'visible') void core.call('sync.checkNow', {});
  };
  window.addEventListener('focus', recheck);
  document.addEventListener('visibilitychange', recheck);
  const off = core.subscribe((e) => {
    switch (e.event) {
      case 'session.changed':
        useUi.setState({ session: e.payload });
        break;
      case 'settings.changed':
        useUi.setState({ settings: e.payload });
        break;
      case 'account.changed':
        useAccount.setState({ account: e.payload });
        break;
      case 'clock.changed':
        useClock.setState({ clock: e.payload });
        break;
      case 'sync.changed': {
        const before = useSync.getState().overview;
        const said = before ? stateChange(appStatusNow(before), appStatusNow(e.payload)) : null;
        useSync.setState({ overview: e.payload });
        if (said) announce(said);
        break;
      }
      case 'office.changed':
        useOffice.setState({ status: e.payload });
        break;
      case 'sync.queue':
        useSync.setState({ queue: e.payload });
        break;
      case 'activity.added':
        useSync.setState((s) => ({ activity: [e.payload, ...s.activity].slice(0, 1000) }));
        break;
      case 'files.index.changed':
        useIndexView.getState().revalidate();
        break;
      case 'files.bulkDelete.changed':
        useIndexView.setState({ job: e.payload });
        break;
      case 'kb.changed':
        applyKbSnapshot(e.payload);
        break;
      case 'kb.botsChanged':
        applyKbBots(e.payload.bots);
        break;
      case 'leads.new':
        applyNewLead(e.payload);
        announce(`New lead: ${e.payload.name}.`);
        break;
      case 'leads.changed':
        applyLeadChanged(e.payload);
        break;
      case 'leads.receiver':
        applyReceiver(e.payload);
        break;
      case 'leads.relay':
        applyRelay(e.payload);
        break;
      case 'leads.arrived':
        applyLeadsArrived(e.payload.count);
        break;
      case 'notify':
        showRunwayNotice(e.payload);
        // The app's state in the status model's words (src-shared/domain/status-notices.ts), as the core sent them.
        if (e.payload.kind !== 'runway')
          announce(e.payload.body ? `${e.payload.title}: ${e.payload.body}` : e.payload.title);
        break;
      case 'urlImport.progress':
        applyImportProgress(e.payload);
        break;
      default:
        break;
    }
  });
  return () => {
    off();
    window.removeEventListener('online', online);
    window.removeEventListener('focus', recheck);
    document.removeEventListener('visibilitychange', recheck);
  };
}
