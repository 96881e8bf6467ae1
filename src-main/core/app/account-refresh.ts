import type { CachedAccount } from '../../../src-shared/contract';
import type { AppContext } from './context';
import { plainError } from './errors';

/**
 * Asks /me (its answer becomes the account snapshot through the client's `onRemote`, which tells the
 * UI and the engine) and answers the snapshot; on failure, the stored copy marked offline.
 */
export async function refreshAccount(ctx: AppContext): Promise<CachedAccount> {
  const live = ctx.session.live;
  const source = ctx.cacheSource();
  const stored = ctx.account.current(source);
  if (!live || !source) return { ...stored, offline: true };
  // The clock first: the /me read is kept with the service's time (the statement's credits are dated
  // by it), and a sandbox's clock may have moved since its last reading. A real account's is instant.
  await ctx.clock.refresh();
  const r = await live.client.me();
  if (!r.ok) return { ...stored, offline: true, error: plainError(r.error) };
  ctx.session.setAccountName(r.value.client.name);
  return ctx.account.current(source);
}
