import type { CoreApi } from '../../src-shared/contract';
import { useAccount } from './account-store';
import { useClock } from './clock-store';
import { useFiles } from './files-store';
import { useSync } from './sync-store';
import { useUi } from './ui-store';

/** Feeds the stores from the core's events: views never poll. */
export function wireEvents(core: CoreApi): () => void {
  return core.subscribe((e) => {
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
      case 'sync.changed':
        useSync.setState({ overview: e.payload });
        break;
      case 'sync.queue':
        useSync.setState({ queue: e.payload });
        break;
      case 'activity.added':
        useSync.setState((s) => ({ activity: [e.payload, ...s.activity].slice(0, 1000) }));
        break;
      case 'files.changed':
        useFiles.getState().reload();
        break;
      default:
        break;
    }
  });
}
