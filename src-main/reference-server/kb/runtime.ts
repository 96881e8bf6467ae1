import type { ServerContext } from '../context';
import { type BotStore, botStore } from './bots';
import { type EntryStore, entryStore } from './entries-store';
import { type KbFaults, kbFaults } from './faults';
import { type MinuteLimiter, minuteLimiter } from './rate-limit';
import { type DeliveryStore, deliveryStore } from './webhook/deliveries-store';
import { type WebhookDispatcher, webhookDispatcher } from './webhook/retry-jobs';

/** The module's parts for one running server (a process may run several, e.g. a test and its restart). */
export interface KbRuntime {
  bots: BotStore;
  entries: EntryStore;
  deliveries: DeliveryStore;
  limiter: MinuteLimiter;
  dispatcher: WebhookDispatcher;
  /** Admin test aids: the entry API offline, or answering 429 for a while (faults.ts). */
  faults: KbFaults;
}

const runtimes = new WeakMap<ServerContext, KbRuntime>();

export function runtimeOf(ctx: ServerContext): KbRuntime {
  let rt = runtimes.get(ctx);
  if (!rt) {
    const bots = botStore(ctx.db);
    const deliveries = deliveryStore(ctx.db);
    rt = {
      bots,
      entries: entryStore(ctx.db),
      deliveries,
      // The server's clock, so that advancing it also ages the window.
      limiter: minuteLimiter(ctx.options.kbRatePerMinute, () => ctx.clock.now()),
      dispatcher: webhookDispatcher(ctx, deliveries, bots),
      faults: kbFaults(),
    };
    runtimes.set(ctx, rt);
  }
  return rt;
}
