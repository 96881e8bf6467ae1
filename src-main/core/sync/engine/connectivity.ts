import { formatIstPeriod } from '../../../../src-shared/domain/time-format';
import type { ApiError } from '../../service/api-error';
import { ApiFailure } from '../../service/api-error';
import type { FileApiClient } from '../../service/file-api-client';
import { backoffDelayMs, OFFLINE_PROBE_BACKOFF } from '../../service/retry-policy';
import type { SyncContext } from '../context';
import { runInBackground } from './background';
import type { EngineState } from './engine-state';
import { roomTimers } from './timers';

/** The service did not answer at all: the connection failed (refused, reset, DNS) or timed out. */
export const isConnectionError = (e: { code: string }) => e.code === 'NETWORK' || e.code === 'TIMEOUT';

export interface Offline {
  /** Epoch ms of the first request that got no answer. */
  since: number;
  code: string;
  message: string;
  /** Epoch ms of the next probe of /me. */
  nextTryAt: number;
  attempt: number;
}

export interface Connectivity {
  /** The client the engine uses: every reply (or its absence) tells whether the service is reachable. */
  observe(client: FileApiClient): FileApiClient;
  /** Probes /me now (a window that regains focus, a "Check now"): the next try is not waited for. */
  checkNow(): void;
  /** Cancels the next probe and resolves once one running has ended. */
  stop(): Promise<void>;
}

/**
 * Whether the service answers. A request that gets no answer (connection refused, reset, DNS, a
 * timeout) makes the engine offline: nothing is sent but a probe of /me on a growing interval; an
 * HTTP answer of any status, to any request, makes it online again, and the queue resumes at once.
 * Each request the engine sends is seen here through `observe`, so no caller has to report.
 */
export function createConnectivity(
  ctx: SyncContext,
  state: EngineState,
  deps: { runReconcile(): Promise<void>; onChange(): void },
): Connectivity {
  const timers = roomTimers<'probe'>(ctx);
  let probing: FileApiClient | null = null;
  let raw: FileApiClient | null = null;
  /** A connection error is being confirmed by one /me: a dropped connection alone is not offline. */
  let confirming = false;

  function failed(e: ApiError) {
    if (!state.running || state.offline || confirming) return;
    const at = ctx.now();
    // A timeout already waited its whole limit: offline at once. A refused or dropped connection is
    // asked once more (about a second and a half with the client's own retries of a GET), so a single
    // reset mid-upload does not stop the queue, and a service that is down shows within seconds.
    if (e.code === 'TIMEOUT' || !raw) {
      goOffline(at, e);
      return;
    }
    confirming = true;
    const asked = raw;
    void runInBackground(
      ctx,
      {
        what: 'Asking the service whether it answers',
        after: () => {
          confirming = false;
        },
      },
      async () => {
        const r = await asked.me({ lane: 'user' });
        if (!r.ok && isConnectionError(r.error)) goOffline(at, e);
      },
    );
  }

  function goOffline(since: number, e: ApiError) {
    if (!state.running || state.offline) return;
    state.offline = { since, code: e.code, message: e.message, nextTryAt: ctx.now(), attempt: 0 };
    ctx.log('offline', `Offline: ${e.message} Uploads wait; the service is asked again in a few seconds.`);
    scheduleProbe();
    deps.onChange();
  }

  function answered() {
    if (!state.offline) return;
    const was = state.offline;
    state.offline = null;
    timers.clear('probe');
    // The period in the one IST format (issue 34: "after about 1 min" said neither when nor how long).
    ctx.log(
      'online',
      `Back online: the service did not answer ${formatIstPeriod(was.since, ctx.now())}; waiting uploads resume.`,
    );
    deps.onChange();
    // Uploads whose outcome was lost are settled by a listing first, then the queue moves.
    void runInBackground(ctx, { what: 'Settling uploads after coming back online' }, deps.runReconcile);
    ctx.wake();
  }

  function scheduleProbe(delayMs?: number) {
    const o = state.offline;
    if (!o || !state.running || state.stopped) return;
    o.attempt++;
    const wait = delayMs ?? backoffDelayMs(o.attempt, OFFLINE_PROBE_BACKOFF);
    o.nextTryAt = ctx.now() + wait;
    // A probe that threw is asked again later: offline cannot outlast the service's silence.
    timers.set(
      'probe',
      wait,
      { what: 'Asking the service whether it answers again', onError: () => scheduleProbe() },
      probe,
    );
  }

  async function probe() {
    if (!state.offline || !probing || !state.running) return;
    await probing.me({ lane: 'user' });
    // An answer went through `observe` and ended the offline spell; none: ask again later.
    if (state.offline) {
      scheduleProbe();
      deps.onChange();
    }
  }

  // What a reply says about the service; its own failure (the activity log's database) is recorded
  // apart and never replaces the reply the caller waits for.
  const see = (r: unknown) => {
    const res = r as { ok?: boolean; error?: ApiError } | null;
    if (res && typeof res === 'object' && 'ok' in res)
      void runInBackground(ctx, { what: 'Noting whether the service answered' }, () => {
        if (res.ok) answered();
        else if (res.error && isConnectionError(res.error)) failed(res.error);
        else if (res.error && res.error.status !== undefined) answered();
      });
    return r;
  };

  function observe(client: FileApiClient): FileApiClient {
    const wrapped = new Proxy(client, {
      get(target, key, receiver) {
        const v = Reflect.get(target, key, receiver);
        if (typeof v !== 'function') return v;
        return (...args: unknown[]) => {
          const out = v.apply(target, args);
          if (out instanceof Promise) return out.then(see);
          if (out && typeof out === 'object' && Symbol.asyncIterator in out)
            return watchIterable(out as AsyncIterable<unknown>);
          return out;
        };
      },
    });
    probing = wrapped;
    raw = client;
    return wrapped;
  }

  async function* watchIterable(it: AsyncIterable<unknown>) {
    try {
      let first = true;
      for await (const item of it) {
        if (first) answered();
        first = false;
        yield item;
      }
      if (first) answered();
    } catch (e) {
      if (e instanceof ApiFailure) {
        if (isConnectionError(e.error)) failed(e.error);
        else if (e.error.status !== undefined) answered();
      }
      throw e;
    }
  }

  return {
    observe,
    checkNow() {
      if (state.offline) scheduleProbe(0);
    },
    stop: () => timers.stop(),
  };
}
