import { ok } from '../../../../src-shared/errors';
import type { AppContext } from '../context';
import type { Section } from '../section';

export function sessionSection(ctx: AppContext): Section {
  const announce = <T extends { ok: boolean }>(r: T): T => {
    if (r.ok) ctx.bus.emit('session.changed', ctx.session.describe());
    return r;
  };
  return {
    name: 'session',
    handlers: {
      'session.get': async () => ok(ctx.session.describe()),
      'session.useSandbox': async () => announce(await ctx.session.openSandbox()),
      'session.connect': async (r) =>
        announce(
          await ctx.session.connect(r.baseUrl, r.apiKey, r.allowPlainHttp ? { allowPlainHttp: true } : {}),
        ),
      'session.disconnect': async () => announce(await ctx.session.disconnect()),
    },
  };
}
