import type { Account } from '../../../../src-shared/api/file-hosting';
import { backoffDelayMs, engineAskAgain, pausePollBackoff } from '../../service/retry-policy';
import { moveToAccount } from '../account/account-change';
import { pauseReason, rulesFrom, uploadsAllowed } from '../account/account-gate';
import type { SyncContext } from '../context';
import { sameAccount } from '../state/account-store';
import type { EngineState } from './engine-state';
import type { ProgressBookkeeping } from './progress-bookkeeping';
import type { Scheduler } from './scheduler';
import { transitionAll } from './scheduler';
import { roomTimers } from './timers';

export type Opened = 'ready' | 'stopped' | 'unconfirmed';

export interface AccountSession {
  /** A 402: every upload waits as PAUSED; /me is polled until it allows uploads, then they resume. */
  pauseForAccount(e: { code: string; message: string }): void;
  /** A 401 or 403 CLIENT-CLOSED: nothing more is sent; in-flight uploads are aborted. */
  stopFor(reaction: 'auth' | 'closed', e: { code: string; message: string }): void;
  /**
   * Reads /me: the upload rules, whether uploads are allowed, and which account this is. Another account
   * than the rows were synced with: every synced row is checked against it first (moveToAccount).
   * 'unconfirmed': the service did not answer and the rows may belong to another account, so nothing
   * is sent or deleted until it does. `scans`: the start-up scans, awaited before a move.
   */
  openAccount(scans: Promise<unknown>, quiet: boolean): Promise<Opened>;
  /** Uploads and deletes may start: paused rows resume unless the account still refuses, the journal is settled. */
  finishStartup(): Promise<void>;
  /** /me did not answer at start: ask again with backoff until it does, then finish the start-up. */
  confirmAccountLater(scans: Promise<unknown>, attempt: number): void;
  /** Paused by the account: ask /me now (a "Check now", a window that regains focus), not at the next poll. */
  checkNow(): void;
  /**
   * A /me answer read by anyone (the app's Account view, its clock, this engine's poll): the one account
   * snapshot the pause follows. Allowed again: paused uploads resume at once. Refused: the queue pauses
   * before an upload meets the 402.
   */
  accountSeen(account: Account): void;
  /** Paused by the account: when /me is asked next (epoch ms), else null. */
  nextCheckAt(): number | null;
  /** Cancels the polls of /me and resolves once one running has ended. */
  stop(): Promise<void>;
}

/**
 * The account gate: what the account allows. It pauses uploads on 402 and polls /me sparingly until they
 * may resume; it stops the engine on 401 and on a closed account; at start it confirms which account
 * the rows belong to before anything is sent or deleted.
 */
export function createAccountSession(
  ctx: SyncContext,
  state: EngineState,
  deps: { book: ProgressBookkeeping; scheduler: Scheduler; service: string },
): AccountSession {
  const { client, files, accounts, events, options } = ctx;
  const { book, scheduler, service } = deps;
  const timers = roomTimers<'poll' | 'confirm'>(ctx);

  function pauseForAccount(e: { code: string; message: string }) {
    if (!state.accountPaused) {
      state.accountPaused = { code: e.code, message: e.message };
      ctx.log('paused', `Uploads paused: ${e.message}`);
      events.emit('paused', state.accountPaused);
    }
    transitionAll(ctx, 'QUEUED', 'PAUSED', { reasonCode: e.code, reason: e.message });
    schedulePoll();
  }

  // pausePollBackoff: about 2 s, 4 s, 8 s, then every 5-10 s (pausePollMs, jittered) however long the
  // pause lasts: a top-up is seen within 10 s after a minute or after a day, for at most 12 requests a
  // minute and about 8 on average (7% of the 115 a minute budget). Any other /me the app reads
  // meanwhile resumes at once (accountSeen). The wait is on the engine's clock.
  function schedulePoll(delayMs?: number) {
    if (timers.has('poll') || !state.running || state.stopped) return;
    const attempt = (state.pausePoll?.attempt ?? 0) + 1;
    const wait = delayMs ?? backoffDelayMs(attempt, pausePollBackoff(options.pausePollMs));
    state.pausePoll = { attempt, nextAt: ctx.now() + wait };
    // A poll that threw is asked again later, so a pause cannot outlive the account's refusal.
    timers.set(
      'poll',
      wait,
      { what: 'Asking the service whether uploads may resume', onError: () => schedulePoll() },
      pollAccount,
    );
  }

  function checkNow() {
    if (!state.accountPaused || !state.running || state.stopped) return;
    timers.clear('poll');
    // The interval starts over: a person who just topped up may press again in a few seconds.
    state.pausePoll = null;
    schedulePoll(0);
  }

  async function pollAccount() {
    if (!state.running || state.stopped || !state.accountPaused) return;
    const me = await client.me();
    if (me.ok) accountSeen(me.value);
    else if (me.error.reaction === 'auth' || me.error.reaction === 'closed')
      stopFor(me.error.reaction, me.error);
    if (state.accountPaused) schedulePoll();
  }

  function accountSeen(account: Account) {
    // At start-up openAccount reads /me and decides; a stopped engine sends nothing anyway.
    if (!state.running || state.stopped || state.startingUp) return;
    state.rules = rulesFrom(account);
    if (!uploadsAllowed(account)) {
      if (state.accountPaused) state.accountPaused = pauseReason(account);
      else pauseForAccount(pauseReason(account));
      return;
    }
    if (!state.accountPaused) return;
    state.accountPaused = null;
    state.pausePoll = null;
    timers.clear('poll');
    transitionAll(ctx, 'PAUSED', 'QUEUED', { reasonCode: null, reason: null });
    ctx.log('resumed', 'Uploads resumed: the account allows uploads again.');
    events.emit('resumed', { reason: 'The account allows uploads again.' });
    scheduler.wake();
  }

  function stopFor(reaction: 'auth' | 'closed', e: { code: string; message: string }) {
    if (state.stopped) return;
    state.stopped = { reaction, code: e.code, message: e.message };
    const what =
      reaction === 'auth'
        ? `Syncing stopped: the API key was refused. Log in again with a valid key. (${e.code})`
        : `Syncing stopped: the account is closed. ${e.message}`;
    ctx.log('stopped', what);
    events.emit('stopped', state.stopped);
    for (const u of state.uploading.values()) u.controller.abort();
    book.checkInSync();
  }

  async function openAccount(scans: Promise<unknown>, quiet: boolean): Promise<Opened> {
    const me = await client.me();
    if (!state.running) return 'stopped';
    const known = accounts.get();
    if (!me.ok) {
      if (me.error.reaction === 'auth' || me.error.reaction === 'closed') {
        stopFor(me.error.reaction, me.error);
        return 'stopped';
      }
      // Same service as on record, or nothing synced yet: the rows cannot be mistaken for another account's.
      const provisional = known ? known.service === service : !files.hasRemotes();
      if (!quiet)
        ctx.log(
          'offline',
          provisional
            ? `The service could not be reached (${me.error.code}); using the documented upload rules for now.`
            : `The service could not be reached (${me.error.code}); nothing is sent until it confirms which account the synced files belong to.`,
        );
      return provisional ? 'ready' : 'unconfirmed';
    }
    state.rules = rulesFrom(me.value);
    const seen = { service, clientId: me.value.client.id };
    if (!sameAccount(known, seen)) {
      if (known === null && !files.hasRemotes()) accounts.set(seen);
      else {
        // What the scans found changed or deleted was seen against the old rows; the move settles it.
        await scans;
        if (!state.running) return 'stopped';
        moveToAccount(ctx, known, seen);
      }
    }
    if (!uploadsAllowed(me.value)) pauseForAccount(pauseReason(me.value));
    return 'ready';
  }

  async function finishStartup() {
    if (state.accountPaused === null)
      transitionAll(ctx, 'PAUSED', 'QUEUED', { reasonCode: null, reason: null });
    await scheduler.runReconcile();
    state.startingUp = false;
    scheduler.wake();
  }

  function confirmAccountLater(scans: Promise<unknown>, attempt: number) {
    const again = () => {
      if (state.running && !state.stopped && !timers.has('confirm')) confirmAccountLater(scans, attempt + 1);
    };
    timers.set(
      'confirm',
      backoffDelayMs(attempt, engineAskAgain(options.backoff)),
      { what: 'Confirming the account', onError: again },
      async () => {
        if (!state.running || state.stopped) return;
        const opened = await openAccount(scans, true);
        if (opened === 'ready') await finishStartup();
        else if (opened === 'unconfirmed') again();
        else state.startingUp = false;
      },
    );
  }

  return {
    pauseForAccount,
    stopFor,
    openAccount,
    finishStartup,
    confirmAccountLater,
    checkNow,
    accountSeen,
    nextCheckAt: () => (state.accountPaused && timers.has('poll') ? (state.pausePoll?.nextAt ?? null) : null),
    stop: () => timers.stop(),
  };
}
