import { describe, expect, it } from 'vitest';
import {
  type AppState,
  appStatus,
  type FolderFacts,
  fileStatus,
  folderStatus,
  HOLD_KINDS,
  type HoldKind,
  type Holds,
  type LeadsFacts,
  leadsStatus,
  NO_HOLDS,
  type StatusFacts,
} from '../../src-shared/domain/status-model';

// Issue 31: one status model. Every hold, every row state, and the app's word over files and knowledge.
const clock = (ms: number) => `${new Date(ms).toISOString().slice(11, 16)} IST`;
const T = Date.UTC(2026, 10, 28, 12, 0);
const until = T + 3_600_000;

type FolderPatch = Omit<Partial<FolderFacts>, 'tally'> & { tally?: Partial<FolderFacts['tally']> };
const folder = (p: FolderPatch = {}): FolderFacts => ({
  id: 1,
  path: '/photos',
  paused: false,
  problem: null,
  inSync: true,
  ...p,
  tally: { live: 16, pending: 0, failed: 0, skipped: 3, removedByYou: 1, retrying: 0, active: 0, ...p.tally },
});
const facts = (
  holds: Partial<Holds>,
  folders: FolderFacts[],
  more: Partial<StatusFacts> = {},
): StatusFacts => ({
  now: T,
  holds: { ...NO_HOLDS, ...holds },
  folders,
  clock,
  ...more,
});

const HOLD: Record<HoldKind, Partial<Holds>> = {
  stopped: { stopped: { code: 'ACCOUNT-CLOSED', message: 'The account is closed.' } },
  key: { account: { code: 'UNAUTHENTICATED', message: 'The API key was refused.' } },
  wallet: { account: { code: 'UPLOADS-PAUSED', message: 'Top up the wallet.' } },
  'user-paused': { userPaused: true },
  'folder-paused': {},
  schedule: { schedule: { until } },
  offline: { offline: { nextTryAt: T + 25_000 } },
  'rate-limited': { rateLimited: { until } },
  'office-wait': { officeWait: { until } },
};

describe('the status model, hold by hold (3 files pending: 1 uploading, 1 queued, 1 waiting to retry)', () => {
  const pending = { pending: 3, active: 1, retrying: 1 };
  const table: [HoldKind, string, AppState, string, string][] = [
    // hold, folder word, app state, app word, why the pending wait
    ['stopped', 'Stopped', 'error', 'Stopped', '3 waiting: syncing stopped'],
    ['key', 'Key refused', 'paused', 'Key refused', '3 waiting: the key was refused'],
    ['wallet', 'Waiting for the wallet', 'paused', 'Waiting for the wallet', '3 waiting: the wallet'],
    ['user-paused', 'All paused', 'paused', 'Paused', '3 waiting: all paused'],
    ['folder-paused', 'Paused', 'paused', 'Paused', '3 waiting: folder paused'],
    [
      'schedule',
      'Paused by the schedule',
      'paused',
      'Paused by the schedule',
      '3 waiting: paused by the schedule until 13:00 IST',
    ],
    ['offline', 'Offline', 'offline', 'Offline', '3 waiting: offline'],
    [
      'rate-limited',
      'Slowed by the service',
      'syncing',
      'Slowed by the service',
      '3 waiting: the service asked for fewer requests until 13:00 IST',
    ],
    [
      'office-wait',
      'Waiting for the office',
      'syncing',
      'Waiting for the office',
      "3 waiting: the office's turn until 13:00 IST",
    ],
  ];
  it('covers every hold', () => {
    expect(table.map(([k]) => k).sort()).toEqual([...HOLD_KINDS].sort());
  });
  it.each(table)('%s: the folder says "%s", the app is %s "%s"', (kind, word, state, appWord, why) => {
    const f = folder({ paused: kind === 'folder-paused', inSync: false, tally: pending });
    const app = appStatus(facts(HOLD[kind], [f]));
    const card = app.folders[0]!;
    expect(card.word).toBe(word);
    expect(card.pendingText).toBe(why);
    expect(card.pendingBy).toMatchObject({ held: 3, sending: 0, hold: kind });
    expect(app.state).toBe(state);
    expect(app.word).toBe(appWord);
    // The word stays short; when a timed hold ends is in the detail (the tray's, the badge's tooltip).
    if (kind === 'schedule' || kind === 'rate-limited' || kind === 'office-wait')
      expect(app.detail).toBe('3 files waiting until 13:00 IST');
    // Never "Syncing" while nothing may be sent; a time left only where the hold ends by itself at a
    // known time, which the estimate counts (time-left.ts).
    expect(app.mayEstimate).toBe(kind === 'schedule' || kind === 'rate-limited' || kind === 'office-wait');
    expect(app.queueText).toMatch(/^3 waiting \(/);
    // Every pending file says the hold, one left uploading too: nothing is sent under a hold.
    expect(
      fileStatus({ state: 'QUEUED', reasonCode: null, nextRetryAt: null }, card.pendingBy.hold).word,
    ).toMatch(/^Waiting: /);
    expect(
      fileStatus({ state: 'UPLOADING', reasonCode: null, nextRetryAt: null }, card.pendingBy.hold).word,
    ).toMatch(/^Waiting: /);
  });
  it('a pause is said with nothing pending; a hold on the service is not (nothing waits for it)', () => {
    for (const kind of HOLD_KINDS) {
      const card = folderStatus(folder({ paused: kind === 'folder-paused' }), facts(HOLD[kind], []));
      const said = ['stopped', 'user-paused', 'folder-paused'].includes(kind);
      expect(card.word, kind).toBe(
        said
          ? kind === 'user-paused'
            ? 'All paused'
            : kind === 'stopped'
              ? 'Stopped'
              : 'Paused'
          : 'In sync',
      );
    }
  });
  it('says what the person can do: resume the folder, resume all, or pause', () => {
    expect(folderStatus(folder({ paused: true }), facts({}, [])).action).toBe('resume');
    expect(folderStatus(folder(), facts({ userPaused: true }, [])).action).toBe('resume-all');
    expect(folderStatus(folder(), facts({}, [])).action).toBe('pause');
    expect(appStatus(facts({ userPaused: true }, [])).toggle).toBe('resume');
  });
});

describe('the status model, with no hold', () => {
  const table: [string, FolderPatch, string, AppState, string, string | null, string][] = [
    // case, folder facts, folder word, app state, app word, pending text, queue
    ['in sync', {}, 'In sync', 'idle', 'In sync', null, '0 in progress · 0 waiting'],
    [
      'a change not yet read (a drop)',
      { inSync: false },
      'Checking for changes',
      'syncing',
      'Syncing',
      null,
      '0 in progress · 0 waiting',
    ],
    [
      'uploading',
      { tally: { pending: 2, active: 1 } },
      'Syncing',
      'syncing',
      'Syncing',
      '1 being sent · 1 waiting its turn',
      '1 in progress · 1 waiting',
    ],
    [
      'a failed file waiting to retry',
      { tally: { pending: 1, retrying: 1 } },
      'Waiting to retry',
      'syncing',
      'Waiting to retry',
      '1 waiting to retry',
      '0 in progress · 1 waiting (1 to retry)',
    ],
    [
      'a file failed for good',
      { tally: { failed: 1 } },
      '1 needs attention',
      'error',
      '1 needs attention',
      null,
      '0 in progress · 0 waiting',
    ],
    [
      'a vanished folder',
      { problem: 'The folder /photos is gone.' },
      'Needs attention',
      'error',
      'Needs attention',
      null,
      '0 in progress · 0 waiting',
    ],
  ];
  it.each(table)('%s', (_, f, word, state, appWord, pendingText, queue) => {
    const app = appStatus(facts({}, [folder(f)]));
    expect(app.folders[0]!.word).toBe(word);
    expect(app.folders[0]!.pendingText).toBe(pendingText);
    expect(app.state).toBe(state);
    expect(app.word).toBe(appWord);
    expect(app.queueText).toBe(queue);
  });
  it('a failed file beside uploads: the badge says Syncing and the attention beside it', () => {
    const card = folderStatus(folder({ tally: { pending: 1, active: 1, failed: 2 } }), facts({}, []));
    expect([card.word, card.attention, card.canRetry]).toEqual(['Syncing', '2 need attention', true]);
  });
  it('counts by the one set of categories, summed over the folders', () => {
    const app = appStatus(facts({}, [folder(), folder({ id: 2, tally: { live: 1, failed: 1 } })]));
    expect(app.counts).toEqual({ live: 17, pending: 0, failed: 1, skipped: 6, removedByYou: 2 });
    expect(app.attention).toBe(1);
  });
  it('only files waiting to retry are no time left to estimate; files that may go are', () => {
    expect(appStatus(facts({}, [folder({ tally: { pending: 1, retrying: 1 } })])).mayEstimate).toBe(false);
    expect(appStatus(facts({}, [folder({ tally: { pending: 2, active: 1 } })])).mayEstimate).toBe(true);
  });
});

describe('knowledge entries in the app word', () => {
  const kb = (p: Partial<NonNullable<StatusFacts['knowledge']>[number]>) => ({
    pending: 2,
    conflict: 0,
    error: 0,
    state: 'idle' as const,
    ...p,
  });
  it('folders in sync, 2 edits waiting offline: the word says the knowledge', () => {
    const app = appStatus(facts({}, [folder()], { knowledge: [kb({ state: 'offline' })] }));
    expect(app.word).toBe('2 knowledge edits waiting: offline');
    expect(app.state).toBe('syncing');
  });
  it('the engine offline: "Offline", with the knowledge edits in the detail', () => {
    const app = appStatus(facts({ offline: { nextTryAt: T } }, [folder()], { knowledge: [kb({})] }));
    expect([app.state, app.word, app.detail]).toEqual([
      'offline',
      'Offline',
      '2 knowledge edits waiting: offline',
    ]);
  });
  it('a 429 is said as such', () => {
    const app = appStatus(
      facts({}, [folder()], { knowledge: [kb({ state: 'error', rateLimitedUntil: until })] }),
    );
    expect(app.word).toBe('2 knowledge edits waiting: the service asked for fewer requests');
  });
  it('a conflict needs attention', () => {
    const app = appStatus(facts({}, [folder()], { knowledge: [kb({ pending: 0, conflict: 1 })] }));
    expect([app.state, app.word]).toEqual(['error', '1 knowledge edit needs attention']);
  });
});

describe('one file', () => {
  const table: [string, string | null, number | null, string, string][] = [
    ['LIVE', null, null, 'Live', 'live'],
    ['SKIPPED', 'EXTENSION-NOT-ALLOWED', null, 'Skipped', 'skipped'],
    ['SKIPPED', 'REMOVED-BY-YOU', null, 'Removed by you', 'removedByYou'],
    ['FAILED', 'STORAGE-FAILED', T, 'Will retry', 'pending'],
    ['FAILED', 'STORAGE-FAILED', null, 'Failed', 'failed'],
    ['NEW', null, null, 'Waiting', 'pending'],
    ['HASHING', null, null, 'Checking', 'pending'],
    ['QUEUED', null, null, 'Queued', 'pending'],
    ['UPLOADING', null, null, 'Uploading', 'pending'],
    ['PAUSED', null, null, 'Paused', 'pending'],
    ['DELETING', null, null, 'Deleting', 'pending'],
    ['DELETED', null, null, 'Deleted', 'deleted'],
  ];
  it.each(table)('%s %s (retry %s): "%s", counted %s', (state, reasonCode, nextRetryAt, word, category) => {
    expect(fileStatus({ state, reasonCode, nextRetryAt })).toMatchObject({ word, category });
  });
});

describe('leads in the same model', () => {
  const unreachable = {
    code: 'RELAY-UNREACHABLE',
    message: 'The relay at https://r.example could not be reached (ECONNREFUSED).',
  };
  const refusedToken = {
    code: 'RELAY-TOKEN-REFUSED',
    message: 'The relay at https://r.example refused the read token: paste the current one.',
  };
  const listenFailed = {
    code: 'LEADS-RECEIVER-FAILED',
    message: 'The lead receiver could not listen on 127.0.0.1:4000 (EACCES).',
  };
  const relay = (p: Partial<NonNullable<LeadsFacts['relay']>> = {}): LeadsFacts => ({
    source: 'relay',
    receiver: { running: true, error: null },
    relay: { connected: true, error: null, waiting: 0, rejected: 0, ...p },
  });
  const receiver = (running: boolean, error: { code: string; message: string } | null): LeadsFacts => ({
    source: 'receiver',
    receiver: { running, error },
    relay: null,
  });
  // facts, the Leads header's word, its link word, does it speak for the app, the app's state and word
  const table: [string, LeadsFacts, string, string, boolean, AppState, string][] = [
    [
      'receiver listening',
      receiver(true, null),
      'Receiving on this computer',
      'Listening',
      false,
      'idle',
      'In sync',
    ],
    [
      'receiver cannot listen',
      receiver(false, listenFailed),
      'Lead receiver stopped',
      'Not listening',
      true,
      'error',
      'Lead receiver stopped',
    ],
    ['relay connected', relay(), 'Receiving through the relay', 'Connected', false, 'idle', 'In sync'],
    [
      'relay connecting',
      relay({ connected: false }),
      'Connecting to the lead relay',
      'Connecting',
      false,
      'idle',
      'In sync',
    ],
    [
      'relay unreachable',
      relay({ connected: false, error: unreachable }),
      'Lead relay unreachable',
      'Unreachable',
      true,
      'offline',
      'Lead relay unreachable',
    ],
    [
      'relay answers 503',
      relay({ connected: false, error: { code: 'RELAY-UNAVAILABLE', message: 'The relay answered 503.' } }),
      'Lead relay unreachable',
      'Unreachable',
      true,
      'offline',
      'Lead relay unreachable',
    ],
    [
      'relay refuses the token',
      relay({ connected: false, error: refusedToken }),
      'Lead relay needs attention',
      'Refused',
      true,
      'error',
      'Lead relay needs attention',
    ],
    [
      '3 leads waiting at the relay',
      relay({ waiting: 3 }),
      '3 leads waiting at the relay',
      'Connected',
      true,
      'syncing',
      '3 leads waiting at the relay',
    ],
    [
      'waiting, no app runs (the CLI)',
      relay({ connected: null, waiting: 1 }),
      '1 lead waiting at the relay',
      'Last known',
      true,
      'syncing',
      '1 lead waiting at the relay',
    ],
    [
      'refused deliveries alone',
      relay({ rejected: 2 }),
      'Receiving through the relay',
      'Connected',
      false,
      'idle',
      'In sync',
    ],
  ];
  it.each(table)('%s', (_, l, word, link, speaks, state, appWord) => {
    const m = leadsStatus(l);
    expect([m.word, m.link, m.speaksForApp]).toEqual([word, link, speaks]);
    const app = appStatus(facts({}, [folder()], { leads: l }));
    expect([app.state, app.word]).toEqual([state, appWord]);
    expect(app.leads?.word).toBe(word);
  });
  it('refused deliveries are counted in the Leads view, never in the app word (forged ones stay)', () => {
    expect(leadsStatus(relay({ rejected: 2 })).refused).toBe('2 deliveries refused');
    expect(leadsStatus(relay({ rejected: 1 })).refused).toBe('1 delivery refused');
    expect(leadsStatus(relay()).refused).toBeNull();
  });
  it('the order: files, then knowledge, then leads', () => {
    const down = relay({ connected: false, error: unreachable });
    const kb = { pending: 2, conflict: 0, error: 0, state: 'offline' as const };
    expect(appStatus(facts({}, [folder({ tally: { pending: 2 } })], { leads: down })).word).toBe('Syncing');
    expect(appStatus(facts({}, [folder()], { leads: down, knowledge: [kb] })).word).toBe(
      '2 knowledge edits waiting: offline',
    );
    // Leads being lost go before files that only wait: a receiver that cannot listen.
    const stopped = receiver(false, listenFailed);
    expect(appStatus(facts({}, [folder({ tally: { pending: 2 } })], { leads: stopped })).word).toBe(
      'Lead receiver stopped',
    );
    // ... but after files that failed for good.
    expect(appStatus(facts({}, [folder({ tally: { failed: 1 } })], { leads: stopped })).word).toBe(
      '1 needs attention',
    );
  });
  it('the engine offline: "Offline", with the relay in the detail', () => {
    const app = appStatus(
      facts({ offline: { nextTryAt: T } }, [folder()], {
        leads: relay({ connected: false, error: unreachable }),
      }),
    );
    expect([app.state, app.word, app.detail]).toEqual(['offline', 'Offline', 'Lead relay unreachable']);
  });
  it('the unreachable relay says what it means for the leads', () => {
    expect(leadsStatus(relay({ connected: false, error: unreachable })).detail).toBe(
      `${unreachable.message} Leads wait at the relay; this desk tries again shortly.`,
    );
  });
});
