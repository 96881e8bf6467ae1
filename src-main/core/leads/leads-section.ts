import { ok } from '../../../src-shared/errors';
import type { AppContext } from '../app/context';
import type { Section } from '../app/section';
import type { leadsLinkFile } from './leads-link';
import type { LeadsService } from './leads-service';

/** The leads commands of the contract. The receiver starts with the app and stops with it. */
export function leadsSection(
  ctx: AppContext,
  leads: LeadsService,
  link?: ReturnType<typeof leadsLinkFile>,
): Section {
  return {
    name: 'leads',
    handlers: {
      'leads.list': async (r) => ok({ leads: leads.list(r), receiver: leads.receiver() }),
      'leads.get': async (r) => leads.detail(r.leadId),
      'leads.setHandled': async (r) => {
        const res = leads.setHandled(r.leadId, r.handled);
        if (res.ok) ctx.bus.emit('leads.changed', res.value);
        return res;
      },
      // The start times' clock named as the Leads view names it (the sandbox's, or the service's).
      'leads.exportCsv': async (r) =>
        ok(leads.exportCsv(r, { sandbox: ctx.session.live?.connection.kind === 'sandbox' })),
      'leads.receiver': async () => ok(leads.receiver()),
      'leads.configureReceiver': async (r) => leads.configure(r),
      'leads.relay': async () => ok(leads.relay()),
      'leads.connectRelay': async (r) => leads.connectRelay(r),
      'leads.disconnectRelay': async () => leads.disconnectRelay(),
      'leads.rejected': async () => ok({ rejected: leads.rejected() }),
    },
    async start() {
      const r = await leads.start();
      if (!r.ok) ctx.log(`leads: ${r.error.message}`);
    },
    async close() {
      await leads.stop();
      link?.remove();
    },
  };
}
