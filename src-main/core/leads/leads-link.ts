import { z } from 'zod';
import type { ReceiverView, RelayView } from '../../../src-shared/contract/leads';
import type { LeadsFacts } from '../../../src-shared/domain/status-model';
import type { Db } from '../../shared-node/sqlite';
import { statements } from '../../shared-node/statements';
import { liveFactsFile, readLiveFacts } from '../app/holds-file';
import { normalizeRelayUrl } from './relay/relay-settings';

const NAME = 'leads-link.json';

const ErrorFact = z.object({ code: z.string(), message: z.string() }).nullable();
const LeadsLinkSchema = z.object({
  source: z.enum(['relay', 'receiver']),
  relay: z.object({ connected: z.boolean(), error: ErrorFact }).nullable(),
  receiver: z.object({ running: z.boolean(), error: ErrorFact }).nullable(),
});
type LeadsLink = z.infer<typeof LeadsLinkSchema>;

const errorFact = (e: { code: string; message: string } | null) =>
  e ? { code: e.code, message: e.message } : null;

/**
 * The running app's lead link (is the receiver listening, does the relay answer), for `assets-sync
 * status`, which runs no receiver and pulls nothing: written when it changes, removed when the app closes.
 */
export function leadsLinkFile(dataDir: string) {
  const file = liveFactsFile<LeadsLink>(dataDir, NAME);
  return {
    write(relay: RelayView, receiver: ReceiverView): void {
      file.write({
        source: relay.source,
        relay:
          relay.source === 'relay' ? { connected: relay.connected, error: errorFact(relay.error) } : null,
        receiver: { running: receiver.running, error: errorFact(receiver.error) },
      });
    },
    remove: () => file.remove(),
  };
}

/**
 * The leads' facts for the status model from the local state: where leads come from, what the relay held
 * for this desk at the last pull, the deliveries refused; the link itself (listening, answering) only from
 * a running app's file. Null when this desk uses neither a relay nor a running receiver: nothing to say.
 */
export function readLeadsFacts(
  db: Db,
  dataDir: string,
  env: NodeJS.ProcessEnv = process.env,
): LeadsFacts | null {
  const prep = statements(db);
  const live = readLiveFacts(dataDir, NAME, LeadsLinkSchema);
  const envUrl = env.ASSETS_RELAY_URL?.trim();
  const fromEnv = envUrl ? normalizeRelayUrl(envUrl, true) : null;
  const saved = (prep('SELECT url FROM leads_relay WHERE id = 1').get() as { url: string } | undefined)?.url;
  const url = fromEnv?.ok ? fromEnv.value : (saved ?? null);
  const source = live?.source ?? (url ? 'relay' : 'receiver');
  if (source === 'receiver' && !live) return null;
  const cursor = url
    ? (prep('SELECT waiting FROM leads_relay_cursor WHERE url = ?').get(url) as
        | { waiting: number }
        | undefined)
    : undefined;
  const rejected = (prep('SELECT COUNT(*) AS n FROM leads_rejected').get() as { n: number }).n;
  return {
    source,
    receiver: live?.receiver ?? null,
    relay:
      source === 'relay'
        ? {
            connected: live?.relay?.connected ?? null,
            error: live?.relay?.error ?? null,
            waiting: cursor?.waiting ?? 0,
            rejected,
          }
        : null,
  };
}
