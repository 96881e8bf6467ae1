import { setMaxListeners } from 'node:events';
import { Agent } from 'undici';
import { WEBHOOK_RETRY_DELAYS_SECONDS } from '../../../../src-shared/domain/limits';
import type { JobSource } from '../../clock';
import type { ServerContext } from '../../context';
import type { BotStore } from '../bots';
import { type AttemptResult, postWebhook, type Verdict } from './deliver';
import type { DeliveryState, DeliveryStore } from './deliveries-store';
import { signBody } from './sign';

/** Three attempts in all: the second 60 s after the first, the third 5 minutes after the second. */
export const MAX_ATTEMPTS = WEBHOOK_RETRY_DELAYS_SECONDS.length + 1;
const RETRY_DELAYS_MS = WEBHOOK_RETRY_DELAYS_SECONDS.map((s) => s * 1000);
/** Parallel attempts; more wait their turn before their reply timer starts. */
const CONCURRENCY = 64;

/**
 * Runs delivery attempts. The first attempt of an event starts at once; later ones are jobs on the
 * server clock (the JobSource), so `POST /clock/advance` runs them and replies once they are done.
 * Before an attempt goes out its retry time is written down, so a stop at any point leaves the
 * delivery due again (an attempt cut off by a stop does not count and runs again after the restart).
 */
export function webhookDispatcher(ctx: ServerContext, store: DeliveryStore, bots: BotStore) {
  const inFlight = new Map<number, Promise<void>>();
  const shutdown = new AbortController();
  // Every attempt under way listens for the stop.
  setMaxListeners(0, shutdown.signal);
  const agent = new Agent({ connections: CONCURRENCY, keepAliveTimeout: 4_000 });
  const slots = semaphore(CONCURRENCY);

  /** `base`: the time the next retry is counted from, when not this attempt's own start. */
  function launch(id: number, base?: number): Promise<void> {
    const running = inFlight.get(id);
    if (running) return running;
    const attempt = runAttempt(id, base).finally(() => inFlight.delete(id));
    inFlight.set(id, attempt);
    return attempt;
  }

  async function runAttempt(id: number, base?: number): Promise<void> {
    await slots.acquire();
    try {
      if (shutdown.signal.aborted) return;
      const delivery = store.load(id);
      if (delivery?.state !== 'PENDING') return;
      const number = delivery.attemptCount + 1;
      const at = ctx.clock.now();
      const retryAt = number < MAX_ATTEMPTS ? (base ?? at) + RETRY_DELAYS_MS[number - 1]! : null;
      store.setNextAttempt(id, retryAt);
      const result = await send(delivery.botId, delivery.event, delivery.body);
      if (result.verdict === 'ABORTED') {
        store.setNextAttempt(id, delivery.nextAttemptAt ?? at);
        return;
      }
      const state = stateAfter(result.verdict, retryAt !== null);
      store.recordAttempt(
        id,
        { at, status: result.status, error: result.error, durationMs: result.durationMs },
        state,
        state === 'PENDING' ? retryAt : null,
      );
    } catch (error) {
      ctx.log.error({ err: error, delivery: id }, 'webhook attempt failed unexpectedly');
    } finally {
      slots.release();
    }
  }

  async function send(botId: number, event: string, body: Buffer): Promise<AttemptResult> {
    const bot = bots.get(botId);
    // The URL is read at each attempt: an owner who fixes it gets the remaining retries delivered.
    if (!bot?.webhookUrl)
      return {
        verdict: 'RETRY',
        status: null,
        error: 'NO-WEBHOOK-URL: the bot has no webhook URL',
        durationMs: 0,
      };
    return postWebhook({
      url: bot.webhookUrl,
      body,
      headers: {
        'content-type': 'application/json',
        'user-agent': 'assets-sync-reference-server',
        'x-service-event': event,
        'x-service-signature': signBody(bot.signingSecret, body),
      },
      timeoutMs: ctx.options.webhookTimeoutMs,
      shutdown: shutdown.signal,
      dispatcher: agent,
    });
  }

  /**
   * Runs the attempt of `id` due by `at`, first waiting for one already under way. An attempt held up
   * only by that wait counts its own retry delay from when it was due, not from when it went out, so
   * the real seconds spent waiting for a slow receiver do not push the schedule past an advance that
   * covers it (raise, then at once advance 360 s: all three attempts run).
   */
  async function runIfDue(id: number, at: number): Promise<void> {
    let waited = false;
    for (let i = 0; i <= MAX_ATTEMPTS; i++) {
      const running = inFlight.get(id);
      if (running) {
        await running;
        waited = true;
        continue;
      }
      const d = store.load(id);
      if (d?.state !== 'PENDING' || d.nextAttemptAt === null || d.nextAttemptAt > at) return;
      await launch(id, waited ? d.nextAttemptAt : undefined);
      waited = false;
    }
  }

  const job: JobSource = {
    name: 'webhook-retries',
    nextDueAt: () => (shutdown.signal.aborted ? null : store.nextDueAt()),
    async runDue(at) {
      await Promise.all(store.dueIds(at).map((id) => runIfDue(id, at)));
    },
  };

  return {
    job,
    /** The first attempt of a new delivery: started now, not awaited. */
    startNow(id: number): void {
      void launch(id);
    },
    /** After a restart: what fell due while the server was down goes out at once. */
    resume(): void {
      for (const id of store.dueIds(ctx.clock.now())) void launch(id);
    },
    /** Cuts attempts under way (they run again after a restart) and waits for them to settle. */
    async close(): Promise<void> {
      shutdown.abort();
      await Promise.allSettled([...inFlight.values()]);
      await agent.close().catch(() => undefined);
    },
  };
}

function stateAfter(verdict: Verdict, retriesLeft: boolean): DeliveryState {
  if (verdict === 'RETRY') return retriesLeft ? 'PENDING' : 'FAILED';
  return verdict;
}

export type WebhookDispatcher = ReturnType<typeof webhookDispatcher>;

function semaphore(size: number) {
  let free = size;
  const waiting: (() => void)[] = [];
  return {
    acquire(): Promise<void> {
      if (free > 0) {
        free--;
        return Promise.resolve();
      }
      return new Promise((resolve) => waiting.push(resolve));
    },
    release(): void {
      const next = waiting.shift();
      if (next) next();
      else free++;
    },
  };
}
