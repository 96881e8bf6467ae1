import { RELAY_MAX_WAIT_S } from '../../../../src-shared/api/relay';
import type { RelayView } from '../../../../src-shared/contract/leads';

/** The relay's side of the view; where the sandbox's demo bot posts is the leads service's to add. */
export type PulledView = Omit<RelayView, 'sandboxBot'>;

import { type AppError, appError, err, ok, type Result } from '../../../../src-shared/errors';
import { type Clock, realClock } from '../../service/clock';
import { backoffDelayMs, RELAY_PULL_BACKOFF } from '../../service/retry-policy';
import type { StoredLead } from '../leads-store';
import { fetchFeed, sendMarks } from './relay-http';
import type { Applied, RelayInbox } from './relay-inbox';
import type { RelayConfig, RelaySettings } from './relay-settings';

/** An empty answer to a long poll sooner than this was answered early by the relay (room for others). */
const EARLY_ANSWER_MS = 1_000;

export interface RelaySyncOptions {
  settings: RelaySettings;
  inbox: RelayInbox;
  onLeads(added: StoredLead[], changed: StoredLead[]): void;
  onState?(view: PulledView): void;
  log?(line: string): void;
  /** Waits between failed pulls (tests pass a fake clock). */
  clock?: Clock;
  /** How long the relay may hold a pull open (seconds; default the relay's maximum). */
  waitS?: number;
}

export interface PullSummary {
  added: number;
  changed: number;
  rejected: number;
  waiting: number;
  /** Leads the relay's retention deleted before this desk read them (learnt in this pull). */
  expired: number;
}

/**
 * A desk's side of the relay: a loop of long polls from its own cursor (a lead reaches an open desk
 * as soon as the relay stores it), this desk's "handled" changes sent first on each turn and at once
 * when made, and the state the Leads view shows. `pullOnce` is the CLI's: read until caught up.
 */
export function createRelaySync(o: RelaySyncOptions) {
  const log = o.log ?? (() => {});
  const clock = o.clock ?? realClock;
  let running: AbortController | null = null;
  let loop: Promise<void> | null = null;
  let connected = false;
  let lastError: AppError | null = null;

  function view(): PulledView {
    const c = o.settings.current();
    const url = c.ok ? (c.value?.url ?? null) : o.settings.savedUrl();
    const cursor = url ? o.settings.cursor(url) : null;
    return {
      source: url ? 'relay' : 'receiver',
      url,
      from: c.ok ? (c.value?.from ?? null) : o.settings.savedUrl() ? 'saved' : null,
      deskName: c.ok && c.value ? c.value.deskName : o.settings.deskName(),
      connected: url !== null && connected,
      lastPullAt: cursor?.lastPullAt ?? null,
      waiting: cursor?.waiting ?? 0,
      expired: cursor?.expired ?? 0,
      rejected: o.inbox.rejectedCount(),
      error: c.ok ? lastError : c.error,
    };
  }
  const tell = () => o.onState?.(view());

  async function pushMarks(c: RelayConfig): Promise<Result<number, AppError>> {
    const unsent = o.inbox.unsentMarks(c.deskName);
    if (unsent.length === 0) return ok(0);
    const r = await sendMarks(
      c,
      unsent.map((u) => u.mark),
    );
    if (!r.ok) return r;
    for (const u of unsent) o.inbox.markSent(u.leadId, u.at);
    return ok(unsent.length);
  }

  async function pull(
    c: RelayConfig,
    waitS: number,
    signal?: AbortSignal,
  ): Promise<Result<Applied & { waiting: number; expired: number; empty: boolean }, AppError>> {
    const pushed = await pushMarks(c);
    if (!pushed.ok) return pushed;
    const { cursor, waiting } = o.settings.cursor(c.url);
    const feed = await fetchFeed(c, cursor, waitS, signal);
    if (!feed.ok) return feed;
    const f = feed.value;
    const empty = f.deliveries.length === 0 && f.marks.length === 0 && f.expired === 0;
    // An empty answer changes nothing here: no write (a relay flooded with polls answers this desk's
    // early, again and again; each answer was a commit).
    if (empty && f.next === cursor && f.waiting === waiting)
      return ok({ added: [], changed: [], rejected: 0, waiting: f.waiting, expired: 0, empty });
    const applied = o.inbox.apply(c.url, f, () =>
      o.settings.saveCursor(c.url, f.next, f.waiting, new Date().toISOString(), f.expired),
    );
    if (f.expired > 0)
      log(
        `leads relay: ${f.expired} lead${f.expired === 1 ? ' was' : 's were'} deleted by the relay's retention before this desk read ${f.expired === 1 ? 'it' : 'them'}; they cannot be read any more`,
      );
    if (applied.added.length || applied.changed.length) o.onLeads(applied.added, applied.changed);
    return ok({
      ...applied,
      waiting: f.waiting,
      expired: f.expired,
      empty,
    });
  }

  async function run(signal: AbortSignal): Promise<void> {
    let failures = 0;
    while (!signal.aborted) {
      const c = o.settings.current();
      if (!c.ok || !c.value) {
        lastError = c.ok ? null : c.error;
        connected = false;
        tell();
        return;
      }
      // A first answer at once (connected, what waits), then long polls that return when a lead comes.
      const waitS = connected ? (o.waitS ?? RELAY_MAX_WAIT_S) : 0;
      const asked = clock.now();
      const r = await pull(c.value, waitS, signal);
      if (signal.aborted) return;
      if (r.ok) {
        failures = 0;
        // Empty long before its wait was up: the relay answered it early to make room for others (a
        // flood of polls). Asking again at once would join the flood; a second's pause delays a lead
        // by a second at most.
        if (r.value.empty && waitS > 0 && clock.now() - asked < EARLY_ANSWER_MS)
          await clock.sleep(EARLY_ANSWER_MS, signal).catch(() => {});
        const changed =
          !connected || lastError !== null || r.value.added.length || r.value.rejected || r.value.expired;
        connected = true;
        lastError = null;
        if (changed || !r.value.empty) tell();
        continue;
      }
      connected = false;
      lastError = r.error;
      log(`leads relay: ${r.error.message}`);
      tell();
      // A timer that outlives a call: its wait from the policy table, not a loop of the pacer's.
      await clock.sleep(backoffDelayMs(++failures, RELAY_PULL_BACKOFF), signal).catch(() => {});
    }
  }

  return {
    view,
    /** Starts the pull loop when a relay is configured (again after a change of settings). */
    start(): void {
      if (running) return;
      const controller = new AbortController();
      running = controller;
      loop = run(controller.signal).finally(() => {
        if (running === controller) running = null;
      });
    },
    async stop(): Promise<void> {
      running?.abort();
      running = null;
      await loop;
      loop = null;
      connected = false;
    },
    async restart(): Promise<void> {
      await this.stop();
      lastError = null;
      this.start();
    },
    /** Sends this desk's "handled" changes now (the loop sends whatever this could not). */
    async pushNow(): Promise<void> {
      const c = o.settings.current();
      if (!c.ok || !c.value) return;
      const r = await pushMarks(c.value);
      if (!r.ok) log(`leads relay: a "handled" change waits to be sent: ${r.error.message}`);
    },
    /** Reads until the relay has nothing more for this desk (the CLI; no waiting on new ones). */
    async pullOnce(): Promise<Result<PullSummary, AppError>> {
      const c = o.settings.current();
      if (!c.ok) return c;
      if (!c.value) return err(appError('RELAY-NOT-SET', 'No relay is configured.'));
      const total: PullSummary = { added: 0, changed: 0, rejected: 0, waiting: 0, expired: 0 };
      for (;;) {
        const r = await pull(c.value, 0);
        if (!r.ok) return r;
        total.added += r.value.added.length;
        total.changed += r.value.changed.length;
        total.rejected += r.value.rejected;
        total.expired += r.value.expired;
        total.waiting = r.value.waiting;
        if (r.value.empty) return ok(total);
      }
    },
  };
}

export type RelaySync = ReturnType<typeof createRelaySync>;
