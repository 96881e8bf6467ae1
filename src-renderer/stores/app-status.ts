import { useEffect, useMemo } from 'react';
import { appStatusOf } from '../../src-shared/domain/status-facts';
import type { AppStatusModel } from '../../src-shared/domain/status-model';
import { call } from '../api/core-ref';
import { useKb } from '../views/kb/kb-store';
import { useLeads } from '../views/leads/leads-store';
import { useRelay } from '../views/leads/relay/relay-store';
import { useOffice } from '../views/office/office-store';
import { useAccount } from './account-store';
import { useSync } from './sync-store';

/**
 * The one status model (src-shared/domain/status-model.ts) of what the core sent: the overview, the
 * knowledge bots, the leads' relay and receiver, the office and the account. Every surface of the app (the sidebar, the folder card,
 * the queue, the Folders header) reads its words and counts here and computes none of its own.
 */
export function useAppStatus(): AppStatusModel {
  const overview = useSync((s) => s.overview);
  const bots = useKb((s) => s.bots);
  const office = useOffice((s) => s.status);
  const owes = useAccount((s) => (s.account?.value?.arrears.paise ?? 0) > 0);
  const relay = useRelay((s) => s.relay);
  const receiver = useLeads((s) => s.receiver);
  return useMemo(
    () => appStatusOf(overview, { bots, office, owes, relay, receiver }),
    [overview, bots, office, owes, relay, receiver],
  );
}

/** The app's model with the stores' facts as they are now, for an overview just come (outside React). */
export function appStatusNow(overview = useSync.getState().overview): AppStatusModel {
  return appStatusOf(overview, {
    bots: useKb.getState().bots,
    office: useOffice.getState().status,
    owes: (useAccount.getState().account?.value?.arrears.paise ?? 0) > 0,
    relay: useRelay.getState().relay,
    receiver: useLeads.getState().receiver,
  });
}

/** The knowledge bots, read once at start: their outbox is part of the app's one word. */
export function useKnowledgeFacts(): void {
  useEffect(() => {
    if (useKb.getState().bots.length > 0) return;
    void call('kb.bots', {}).then((r) => {
      if (r.ok && useKb.getState().bots.length === 0) useKb.setState({ bots: r.value.bots });
    });
  }, []);
}

/** The leads' relay and receiver, read once at start: a lead link that is down is part of the app's word. */
export function useLeadsFacts(): void {
  useEffect(() => {
    if (!useRelay.getState().relay) void useRelay.getState().load();
    if (!useLeads.getState().receiver)
      void call('leads.receiver', {}).then((r) => {
        if (r.ok && !useLeads.getState().receiver) useLeads.setState({ receiver: r.value });
      });
  }, []);
}
