import { join } from 'node:path';
import type { ServerContext } from '../context';
import { type FaultSwitch, faultSwitch } from './faults';
import { type ObjectStore, objectStore } from './objects';
import { type RateLimiter, rateLimiter } from './rate-limit';
import { type RequestLog, requestLog } from './request-log';
import { type ClientRow, type ClientStore, clientStore } from './store/clients';
import { type FileStore, fileStore } from './store/files';
import { snapshotStore } from './store/snapshots';
import { type WalletStore, walletStore } from './store/wallet';

/** Everything the file-hosting routes and jobs of one running server share. */
export interface Hosting {
  readonly ctx: ServerContext;
  readonly clients: ClientStore;
  readonly wallet: WalletStore;
  readonly files: FileStore;
  readonly snapshots: ReturnType<typeof snapshotStore>;
  readonly objects: ObjectStore;
  readonly faults: FaultSwitch;
  readonly rateLimit: RateLimiter;
  readonly requests: RequestLog;
  /** Opens a client with its first key; the opening balance is a ledger line like any top-up. */
  openClient(input: { name: string; walletPaise: number; defaultBucket: string }): {
    client: ClientRow;
    api_key: string;
    key_id: number;
  };
}

// The module object is shared by every server of the process (tests run several), so state is per context.
const byContext = new WeakMap<ServerContext, Hosting>();

export function hostingOf(ctx: ServerContext): Hosting {
  let hosting = byContext.get(ctx);
  if (!hosting) {
    hosting = createHosting(ctx);
    byContext.set(ctx, hosting);
  }
  return hosting;
}

function createHosting(ctx: ServerContext): Hosting {
  const clients = clientStore(ctx.db);
  const wallet = walletStore(ctx.db);
  return {
    ctx,
    clients,
    wallet,
    files: fileStore(ctx.db),
    snapshots: snapshotStore(ctx.db),
    objects: objectStore(ctx.objectsDir, join(ctx.dataDir, 'tmp-uploads')),
    faults: faultSwitch(),
    rateLimit: rateLimiter(ctx.options.ratePerMinute, ctx.options.rateLimitMode),
    requests: requestLog(),
    openClient(input) {
      const now = ctx.clock.now();
      return ctx.db.transaction(() => {
        const opened = clients.create({ ...input, walletPaise: 0 }, now);
        const client =
          input.walletPaise > 0 ? wallet.adjust(opened.client.id, input.walletPaise, now) : opened.client;
        return { ...opened, client };
      })();
    },
  };
}
