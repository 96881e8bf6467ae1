import type { KbBotView } from '../contract/kb';
import type { ReceiverView, RelayView } from '../contract/leads';
import type { OfficeStatus } from '../contract/office';
import type { FolderView, SyncOverview } from '../contract/sync';
import {
  type AppStatusModel,
  appStatus,
  type FolderFacts,
  type Holds,
  type LeadsFacts,
  NO_HOLDS,
  type StatusFacts,
} from './status-model';
import { formatIstTime } from './time-format';

/**
 * Facts a surface may add beside the overview: the knowledge bots, the leads' relay and receiver, the
 * office, the account's arrears.
 */
export interface MoreFacts {
  bots?: readonly KbBotView[];
  relay?: RelayView | null;
  receiver?: ReceiverView | null;
  office?: OfficeStatus | null;
  owes?: boolean;
  now?: number;
}

/** The time of day every surface says a hold lasts until: "22:00 IST" (the CLI's and the app's clock). */
export const statusClock = (epochMs: number): string => formatIstTime(epochMs).replace(/^.*, /, '');

/**
 * The overview's holds; an overview from before `holds` (or a test's) is read from `held` and `offline`:
 * USER-PAUSED is Pause all, a held state 'error' the engine's stop, any other code the account's refusal.
 */
export function holdsOf(o: SyncOverview | null, office?: OfficeStatus | null, now = Date.now()): Holds {
  if (!o) return NO_HOLDS;
  const h: Holds = o.holds
    ? { ...o.holds }
    : {
        ...NO_HOLDS,
        userPaused: o.held?.code === 'USER-PAUSED',
        stopped: o.held && o.held.code !== 'USER-PAUSED' && o.state === 'error' ? o.held : null,
        account: o.held && o.held.code !== 'USER-PAUSED' && o.state !== 'error' ? o.held : null,
        offline: o.offline ? { nextTryAt: o.offline.nextTryAt } : null,
      };
  // The office's pause after a 429 (its probe) is the desk's back-off: nothing is sent meanwhile.
  // The core's overview says it from the request budget (rate-limited, or the office's wait); from the
  // office's status only when the overview has neither (an older core).
  if (!h.rateLimited && !h.officeWait && office && office.pausedForMs > 0)
    h.rateLimited = { until: now + office.pausedForMs };
  return h;
}

/** One folder of the overview as the model's facts. */
export function folderFacts(f: FolderView): FolderFacts {
  return {
    id: f.id,
    path: f.path,
    paused: f.paused,
    problem: f.problem,
    inSync: f.inSync ?? f.counts.pending === 0,
    tally: f.counts,
  };
}

/** The leads' link as the model reads it, from the core's views of the relay and the receiver. */
export function leadsFactsOf(
  relay: RelayView | null | undefined,
  receiver: ReceiverView | null | undefined,
): LeadsFacts | null {
  if (!relay && !receiver) return null;
  const source = relay?.source ?? 'receiver';
  return {
    source,
    receiver: receiver ? { running: receiver.running, error: receiver.error } : null,
    relay:
      relay && source === 'relay'
        ? { connected: relay.connected, error: relay.error, waiting: relay.waiting, rejected: relay.rejected }
        : null,
  };
}

/** The status model's facts from what the core sends (the overview, the bots, the office). */
export function statusFactsOf(o: SyncOverview | null, more: MoreFacts = {}): StatusFacts {
  const now = more.now ?? Date.now();
  return {
    now,
    holds: holdsOf(o, more.office, now),
    folders: (o?.folders ?? []).map(folderFacts),
    knowledge: (more.bots ?? []).map((b) => ({
      pending: b.counts.pending,
      conflict: b.counts.conflict,
      error: b.counts.error,
      state: b.sync.state,
      // A 429 stays the bot's last error until a round goes through (core/kb/sync.ts).
      rateLimitedUntil:
        b.sync.error?.code === 'KB-RATE-LIMITED'
          ? (b.sync.error.retryAt ?? b.sync.nextAttemptAt ?? now + 1)
          : null,
      nextAttemptAt: b.sync.nextAttemptAt,
    })),
    leads: leadsFactsOf(more.relay, more.receiver),
    owes: more.owes ?? false,
    clock: statusClock,
  };
}

/** The one model of the app, from the overview: every surface of the app calls this and nothing else. */
export function appStatusOf(o: SyncOverview | null, more: MoreFacts = {}): AppStatusModel {
  return appStatus(statusFactsOf(o, more));
}
