import { Done } from '../../../src-shared/contract/define';
import { ok } from '../../../src-shared/errors';
import type { AppContext } from '../app/context';
import { inBackground } from '../app/in-background';
import type { Section } from '../app/section';
import type { Live } from '../app/session-holder';
import type { LeadsService } from '../leads/leads-service';
import type { KbService } from './kb-service';

const done = ok(Done.parse({ done: true }));

/**
 * The knowledge-entry commands of the contract. With the sandbox, the demo bot is set up by
 * itself each time the sandbox starts, its webhook pointed at this run's lead receiver; on a real
 * account it goes, with the sandbox (knowledge-and-leads.md, "The sandbox's demo bot").
 */
export function kbSection(ctx: AppContext, kb: KbService, leads: LeadsService): Section {
  let unsubscribe: (() => void) | null = null;

  let stopSource: (() => void) | null = null;

  async function followSession(live: Live | null): Promise<void> {
    const c = live?.connection;
    if (c?.kind === 'account') {
      if (kb.removeSandboxBots() > 0)
        ctx.log('kb: the sandbox demo bot was removed (a real account is in use)');
      leads.signing.reload();
      leads.noteSandboxBot(null);
      return;
    }
    if (c?.kind !== 'sandbox' || !c.adminToken) return;
    await leads.start();
    // The sandbox can set its own bot's webhook: to the relay when one is in use and its webhook URL
    // was given here, so that its leads take the road a real bot's would (issue 31); else this computer.
    const hook = leads.sandboxWebhook();
    const r = await kb.setUpSandbox({ baseUrl: c.baseUrl, adminToken: c.adminToken, webhookUrl: hook.url });
    leads.signing.reload();
    if (!r.ok) ctx.log(`kb: ${r.error.message}`);
    leads.noteSandboxBot(r.ok && hook.url ? hook.via : null);
  }

  return {
    name: 'kb',
    handlers: {
      'kb.bots': async () => ok({ bots: kb.bots() }),
      'kb.addBot': async (r) => {
        const res = kb.addBot(r);
        leads.signing.reload();
        return res;
      },
      'kb.updateBot': async (r) => kb.updateBot(r),
      'kb.removeBot': async (r) => {
        const res = kb.removeBot(r.botId);
        leads.signing.reload();
        return res.ok ? done : res;
      },
      'kb.entries': async (r) => kb.snapshot(r.botId),
      'kb.create': async (r) => kb.create(r.botId, { title: r.title, description: r.description }),
      'kb.edit': async (r) => kb.edit(r.entryId, { title: r.title, description: r.description }),
      'kb.delete': async (r) => {
        const res = kb.remove(r.entryId);
        return res.ok ? ok({ entry: res.value }) : res;
      },
      'kb.restore': async (r) => kb.restore(r.entryId),
      'kb.resolve': async (r) => {
        const res = kb.resolve(r.entryId, 'merge' in r ? { merge: r.merge } : { keep: r.keep });
        return res.ok ? ok({ entry: res.value }) : res;
      },
      'kb.retry': async (r) => kb.retry(r.entryId),
      'kb.syncNow': async (r) => {
        const res = await kb.syncNow(r.botId);
        return res.ok ? done : res;
      },
    },
    async start() {
      // A relay connected or left while on the sandbox: the demo bot is pointed again before the reply.
      stopSource = leads.onSourceChange(() => followSession(ctx.session.live));
      unsubscribe = ctx.session.onChange((live) =>
        inBackground(ctx.log, 'Following the connection with the knowledge entries', () =>
          followSession(live),
        ),
      );
      await followSession(ctx.session.live);
      kb.start();
    },
    async close() {
      unsubscribe?.();
      stopSource?.();
      await kb.stop();
    },
  };
}
