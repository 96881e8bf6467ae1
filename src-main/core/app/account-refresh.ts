import type { CachedAccount } from '../../../src-shared/contract';
import type { AppContext } from './context';
import { plainError } from './errors';

/** Asks /me, stores the copy, and tells the UI; on failure answers the stored copy marked offline. */
export async function refreshAccount(ctx: AppContext): Promise<CachedAccount> {
  const live = ctx.session.live;
  const source = ctx.cacheSource();
  const stored = source ? ctx.cache.getAccount(source) : null;
  const storedAt = stored ? Date.parse(stored.fetchedAt) : null;
  if (!live || !source)
    return { value: stored?.value ?? null, fetchedAt: storedAt, offline: true, error: null };
  const [r] = await Promise.all([live.client.me(), ctx.clock.refresh()]);
  if (!r.ok)
    return { value: stored?.value ?? null, fetchedAt: storedAt, offline: true, error: plainError(r.error) };
  const at = new Date();
  ctx.cache.putAccount(source, r.value, at);
  ctx.session.setAccountName(r.value.client.name);
  const fresh: CachedAccount = { value: r.value, fetchedAt: at.getTime(), offline: false, error: null };
  ctx.bus.emit('account.changed', fresh);
  return fresh;
}
