import type { LocalState } from '../app/local-state';
import { botIds } from '../kb/bots';
import { createLeadsService } from './leads-service';

/**
 * The leads inbox for a command that runs once (`assets-sync leads`): the app's leads table, the
 * bots' signing secrets (and ASSETS_SIGNING_SECRET), and the relay when one is configured (saved by
 * the app, or ASSETS_RELAY_URL and ASSETS_RELAY_TOKEN). No receiver is started.
 */
export function openLeadsInbox(state: LocalState, env: NodeJS.ProcessEnv = process.env) {
  const leads = createLeadsService({
    db: state.db,
    secrets: state.secrets,
    botIds: () => botIds(state.db),
    onLead: () => {},
    env,
  });
  return {
    relay: leads.relay,
    pullOnce: leads.pullOnce,
    list: leads.list,
    exportCsv: leads.exportCsv,
    rejected: leads.rejected,
  };
}

export type LeadsInbox = ReturnType<typeof openLeadsInbox>;
