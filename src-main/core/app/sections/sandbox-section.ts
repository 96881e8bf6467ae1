import type { SandboxFaults, SandboxState } from '../../../../src-shared/contract/sandbox';
import { plural } from '../../../../src-shared/domain/words';
import { type AppError, appError, err, ok, type Result } from '../../../../src-shared/errors';
import { sandboxRemoteBotId } from '../../kb/bots';
import { SANDBOX_CLIENT_ID } from '../../service/sandbox';
import { refreshAccount } from '../account-refresh';
import type { AppContext } from '../context';
import type { Section } from '../section';
import { type LeadEvent, sandboxAdmin } from './sandbox-admin';

const DAY_S = 86_400;

/** Made-up visitors for the demo bot, taken in turn. */
const VISITORS: Record<LeadEvent['event'], LeadEvent['lead'][]> = {
  'LEAD-CAPTURED': [
    {
      name: 'Asha Rao',
      email: 'asha.rao@example.com',
      phone: '+91 98111 22222',
      note: 'Do you deliver to Pune on Sundays?',
      asked_for_a_person: false,
    },
    {
      name: 'Rahul Mehta',
      email: 'rahul.mehta@example.in',
      phone: '+91 90040 55555',
      note: 'Please send a quote for 200 units.',
      asked_for_a_person: false,
    },
    {
      name: 'Fatima Khan',
      email: 'fatima@example.org',
      phone: '+91 97000 12345',
      note: null,
      asked_for_a_person: false,
    },
  ],
  'HANDOFF-REQUESTED': [
    {
      name: 'Vikram Shah',
      email: 'vikram@example.com',
      phone: '+91 99200 33333',
      note: 'I would like to talk to a person about a bulk order.',
      asked_for_a_person: true,
    },
    {
      name: 'Neha Iyer',
      email: 'neha.iyer@example.com',
      phone: '+91 98450 77777',
      note: 'My payment failed twice; can someone call me?',
      asked_for_a_person: true,
    },
  ],
};

const notSandbox = (): Result<never, AppError> =>
  err(
    appError(
      'NOT-SANDBOX',
      'The Sandbox panel works only with the local sandbox; this app is connected to an account.',
    ),
  );

const toFaults = (f: { storage_fail_rate: number; connection_reset_rate: number }): SandboxFaults => ({
  storageFailRate: f.storage_fail_rate,
  connectionResetRate: f.connection_reset_rate,
});

/**
 * The Sandbox panel's commands: move the sandbox's clock, fill or empty its wallet, raise a lead or
 * a handoff through the demo bot, switch storage faults. Every call goes from the core to the
 * admin surface with this run's admin token, which stays here. After the clock or the wallet
 * moves, the account is read again so the Account view and the banner follow at once.
 */
export function sandboxSection(ctx: AppContext): Section {
  const turns = { 'LEAD-CAPTURED': 0, 'HANDOFF-REQUESTED': 0 };

  const admin = () => {
    const c = ctx.session.live?.connection;
    return c?.kind === 'sandbox' && c.adminToken ? sandboxAdmin(c.baseUrl, c.adminToken) : null;
  };

  async function state(a: ReturnType<typeof sandboxAdmin>): Promise<Result<SandboxState, AppError>> {
    const [clock, faults] = await Promise.all([a.clock(), a.faults({})]);
    if (!clock.ok) return clock;
    if (!faults.ok) return faults;
    return ok({
      clock: clock.value,
      faults: toFaults(faults.value),
      demoBot: sandboxRemoteBotId(ctx.db) !== null,
    });
  }

  /** The account (and the service clock, read with it) as the sandbox has them now. */
  const follow = async () => {
    await refreshAccount(ctx);
  };

  return {
    name: 'sandbox',
    handlers: {
      'sandbox.state': async () => {
        const a = admin();
        return a ? state(a) : notSandbox();
      },
      'sandbox.advanceClock': async ({ days }) => {
        const a = admin();
        if (!a) return notSandbox();
        const moved = await a.advance(days * DAY_S);
        if (!moved.ok) return moved;
        ctx.log(`sandbox: clock moved ${plural(days, 'day')} to ${moved.value.ist} IST`);
        await follow();
        return state(a);
      },
      'sandbox.wallet': async (r) => {
        const a = admin();
        if (!a) return notSandbox();
        // A debit takes at most the balance (reference-server.md), so a large one empties it.
        const amount = 'drain' in r ? -1_000_000_000_000 : r.topUpPaise;
        const after = await a.wallet(SANDBOX_CLIENT_ID, amount);
        if (!after.ok) {
          if (after.error.status === 409)
            return err(
              appError(
                'SANDBOX-CLOSED',
                'The sandbox account is closed (30 days in arrears), so its wallet is frozen. Reset the sandbox in Settings to start again.',
              ),
            );
          return after;
        }
        await follow();
        return ok({ balancePaise: after.value.balance_paise, arrearsPaise: after.value.arrears_paise });
      },
      'sandbox.raiseLead': async ({ event }) => {
        const a = admin();
        if (!a) return notSandbox();
        const botId = sandboxRemoteBotId(ctx.db);
        if (botId === null)
          return err(
            appError(
              'SANDBOX-NO-DEMO-BOT',
              'The demo bot is not set up yet (see Knowledge); a lead needs a bot to come from.',
            ),
          );
        const visitors = VISITORS[event];
        const lead = visitors[turns[event]++ % visitors.length]!;
        const raised = await a.raise(botId, { event, lead });
        if (!raised.ok) return raised;
        return ok({ conversationId: raised.value.conversation_id, name: lead.name });
      },
      'sandbox.faults': async (patch) => {
        const a = admin();
        if (!a) return notSandbox();
        const r = await a.faults({
          ...(patch.storageFailRate !== undefined ? { storage_fail_rate: patch.storageFailRate } : {}),
          ...(patch.connectionResetRate !== undefined
            ? { connection_reset_rate: patch.connectionResetRate }
            : {}),
        });
        if (!r.ok) return r;
        const f = toFaults(r.value);
        ctx.log(
          `sandbox: faults now storage ${f.storageFailRate}, connection drops ${f.connectionResetRate}`,
        );
        return ok(f);
      },
    },
  };
}
