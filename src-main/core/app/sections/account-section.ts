import type { CachedAccount, CachedUsage } from '../../../../src-shared/contract';
import { ok } from '../../../../src-shared/errors';
import { refreshAccount } from '../account-refresh';
import type { AppContext } from '../context';
import { notConnected, plainError } from '../errors';
import type { Section } from '../section';

/** Account and usage: fresh from the service when it answers, else the stored copy with its time. */
export function accountSection(ctx: AppContext): Section {
  const fetchedAt = (iso: string | undefined) => (iso ? Date.parse(iso) : null);

  async function account(refresh: boolean): Promise<CachedAccount> {
    return refresh ? refreshAccount(ctx) : ctx.account.current(ctx.cacheSource());
  }

  return {
    name: 'account',
    handlers: {
      'account.get': async (r) => (ctx.session.live ? ok(await account(r.refresh)) : notConnected()),
      'clock.get': async () => ok(await ctx.clock.refresh()),
      'usage.get': async (r) => {
        const live = ctx.session.live;
        if (!live) return notConnected();
        const source = ctx.cacheSource()!;
        const stored = ctx.cache.getUsage(source, r.days);
        const cachedReply = (error: CachedUsage['error']): CachedUsage => ({
          value: stored?.value ?? [],
          fetchedAt: fetchedAt(stored?.fetchedAt),
          offline: error !== null,
          error,
        });
        if (!r.refresh) return ok(cachedReply(null));
        const fresh = await live.client.usage(r.days);
        if (!fresh.ok) return ok(cachedReply(plainError(fresh.error)));
        const at = new Date();
        ctx.cache.putUsage(source, r.days, fresh.value.snapshots, at);
        return ok({ value: fresh.value.snapshots, fetchedAt: at.getTime(), offline: false, error: null });
      },
    },
  };
}
