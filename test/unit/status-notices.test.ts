import { describe, expect, it } from 'vitest';
import {
  appStatus,
  type FolderFacts,
  type Holds,
  NO_HOLDS,
  type StatusFacts,
} from '../../src-shared/domain/status-model';
import { folderInSyncNotice, noticeTracker } from '../../src-shared/domain/status-notices';

/** The notification the second of these models gets, each tracker starting from the calm one. */
const appNotice = (...models: ReturnType<typeof appStatus>[]) => {
  const track = noticeTracker();
  let last = null;
  for (const m of models) last = track(m);
  return last;
};

// Issue 31: a notification of the app's state says the status model's words (its word, its detail),
// and only when what the word speaks of becomes worth one.
const T = Date.UTC(2026, 10, 28, 12, 0);
const folder = (tally: Partial<FolderFacts['tally']> = {}): FolderFacts => ({
  id: 1,
  path: '/photos',
  paused: false,
  problem: null,
  inSync: true,
  tally: { live: 4, pending: 0, failed: 0, skipped: 0, removedByYou: 0, ...tally },
});
const model = (
  holds: Partial<Holds>,
  tally: Partial<FolderFacts['tally']> = {},
  more: Partial<StatusFacts> = {},
) => appStatus({ now: T, holds: { ...NO_HOLDS, ...holds }, folders: [folder(tally)], ...more });
const calm = model({});

describe('state notifications, in the model’s words', () => {
  const unreachable = {
    code: 'RELAY-UNREACHABLE',
    message: 'The relay at https://r.example could not be reached (ECONNREFUSED).',
  };
  // the state, the notification's kind (null: none)
  const table: [string, ReturnType<typeof model>, string | null][] = [
    ['in sync', calm, null],
    ['syncing', model({}, { pending: 3 }), null],
    ['paused by the person', model({ userPaused: true }), null],
    ['paused by the schedule', model({ schedule: { until: T + 60_000 } }, { pending: 1 }), null],
    [
      'the wallet',
      model({ account: { code: 'UPLOADS-PAUSED', message: 'Top up the wallet.' } }),
      'paused-money',
    ],
    [
      'the key refused',
      model({ account: { code: 'UNAUTHENTICATED', message: 'The API key was refused.' } }),
      'paused-money',
    ],
    ['stopped', model({ stopped: { code: 'CLIENT-CLOSED', message: 'The account is closed.' } }), 'error'],
    ['offline, files waiting', model({ offline: { nextTryAt: T } }, { pending: 2 }), 'offline'],
    ['offline, nothing waiting', model({ offline: { nextTryAt: T } }), null],
    ['a file failed for good', model({}, { failed: 1 }), 'attention'],
    [
      'the relay unreachable',
      model(
        {},
        {},
        {
          leads: {
            source: 'relay',
            receiver: null,
            relay: { connected: false, error: unreachable, waiting: 0, rejected: 0 },
          },
        },
      ),
      'leads',
    ],
    [
      'leads only waiting at the relay',
      model(
        {},
        {},
        {
          leads: {
            source: 'relay',
            receiver: null,
            relay: { connected: true, error: null, waiting: 2, rejected: 0 },
          },
        },
      ),
      null,
    ],
  ];
  it.each(table)('%s', (_, m, kind) => {
    const n = appNotice(calm, m);
    expect(n?.kind ?? null).toBe(kind);
    // The title is the word the sidebar and the tray say; the body the detail after it.
    if (n) expect([n.title, n.body]).toEqual([m.word, m.detail ?? '']);
  });
  it('once per moment: "1 needs attention" then "2 need attention" is one notification', () => {
    const one = model({}, { failed: 1 });
    expect(appNotice(calm, one)?.title).toBe('1 needs attention');
    expect(appNotice(calm, one, model({}, { failed: 2 }))).toBeNull();
    expect(appNotice(calm, one, calm)).toBeNull();
    // Over, then again: a new moment.
    expect(appNotice(calm, one, calm, one)?.title).toBe('1 needs attention');
  });
  it('the relay down while files come and go is one moment, though the word goes to "Syncing" and back', () => {
    const down = {
      leads: {
        source: 'relay' as const,
        receiver: null,
        relay: { connected: false, error: unreachable, waiting: 0, rejected: 0 },
      },
    };
    const up = { leads: { ...down.leads, relay: { ...down.leads.relay, connected: true, error: null } } };
    const relayDown = model({}, {}, down);
    const syncing = model({}, { pending: 2 }, down);
    expect(syncing.word).toBe('Syncing');
    expect(appNotice(calm, relayDown)?.title).toBe('Lead relay unreachable');
    expect(appNotice(calm, relayDown, syncing, relayDown)).toBeNull();
    expect(appNotice(calm, relayDown, model({}, {}, up), relayDown)?.title).toBe('Lead relay unreachable');
  });
  it('a folder in sync is said only when the model agrees, with the card’s word and counts', () => {
    expect(folderInSyncNotice(calm, 1, '/photos')).toEqual({
      kind: 'in-sync',
      title: 'In sync',
      body: '/photos · Live 4',
    });
    expect(folderInSyncNotice(model({}, { pending: 1 }), 1, '/photos')).toBeNull();
    expect(folderInSyncNotice(model({}, { failed: 1 }), 1, '/photos')).toBeNull();
    expect(folderInSyncNotice(model({}, { live: 0, skipped: 2 }), 1, '/photos')).toBeNull();
  });
});
