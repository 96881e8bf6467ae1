import type { AppContext } from '../app/context';
import type { Section } from '../app/section';
import { leadsLinkFile } from '../leads/leads-link';
import { leadsSection } from '../leads/leads-section';
import { createLeadsService, type LeadsService } from '../leads/leads-service';
import { isSwitchable } from '../secrets/secret-stores';
import { botIds } from './bots';
import { kbSection } from './kb-section';
import { createKbService, type KbService } from './kb-service';

/**
 * Knowledge entries and leads share the bots (a bot's token is for entries, its signing secret
 * for the leads it sends), so both sections are built from one pair of services per app.
 */
const services = new WeakMap<
  AppContext,
  { kb: KbService; leads: LeadsService; link: ReturnType<typeof leadsLinkFile> }
>();

function servicesOf(ctx: AppContext) {
  let s = services.get(ctx);
  if (!s) {
    // The lead link for `assets-sync status` (it runs no receiver and pulls nothing).
    const link = leadsLinkFile(ctx.dataDir);
    const tellLink = () => link.write(leads.relay(), leads.receiver());
    const leads: LeadsService = createLeadsService({
      db: ctx.db,
      secrets: ctx.secrets,
      botIds: () => botIds(ctx.db),
      onLead: (lead) => ctx.bus.emit('leads.new', lead),
      onLeadsArrived: (count) => ctx.bus.emit('leads.arrived', { count }),
      onChanged: (lead) => ctx.bus.emit('leads.changed', lead),
      onReceiver: (view) => {
        ctx.bus.emit('leads.receiver', view);
        tellLink();
      },
      onRelay: (view) => {
        ctx.bus.emit('leads.relay', view);
        tellLink();
      },
      env: ctx.env,
      log: (line) => ctx.log(line),
    });
    const kb = createKbService({
      db: ctx.db,
      secrets: ctx.secrets,
      signing: leads.signing,
      onSnapshot: (snapshot) => ctx.bus.emit('kb.changed', snapshot),
      onBots: (bots) => ctx.bus.emit('kb.botsChanged', { bots }),
      // The demo bot's leads are demo data and go with it; a real bot's leads stay in the inbox.
      onBotRemoved: (bot) => {
        if (bot.isSandbox) leads.forgetLeadsOf(bot.localId);
        leads.signing.reload();
      },
    });
    s = { kb, leads, link };
    services.set(ctx, s);
    // An encrypted secrets file chosen or unlocked: the signing secrets and the relay's token can be read now.
    if (isSwitchable(ctx.secrets))
      ctx.secrets.onChange(() => {
        leads.signing.reload();
        void leads.restartRelay();
      });
  }
  return s;
}

/** Registered before the knowledge section: its receiver must be listening when the sandbox bot is set up. */
export const leadsSectionFactory = (ctx: AppContext): Section => {
  const s = servicesOf(ctx);
  return leadsSection(ctx, s.leads, s.link);
};
export const knowledgeSectionFactory = (ctx: AppContext): Section => {
  const s = servicesOf(ctx);
  return kbSection(ctx, s.kb, s.leads);
};

/** The entry store, for the link check (its fixes are edits, queued in the outbox like any other). */
export const kbServiceOf = (ctx: AppContext): KbService => servicesOf(ctx).kb;
