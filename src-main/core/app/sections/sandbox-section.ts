import type { SandboxFaults, SandboxState } from '../../../../src-shared/contract/sandbox';
import { plural } from '../../../../src-shared/domain/words';
import { type AppError, appError, err, ok, type Result } from '../../../../src-shared/errors';
import { statements } from '../../../shared-node/statements';
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
    const [clock, faults, kb] = await Promise.all([a.clock(), a.faults({}), a.kbFaults({})]);
    if (!clock.ok) return clock;
    if (!faults.ok) return faults;
    if (!kb.ok) return kb;
    return ok({
      clock: clock.value,
      faults: toFaults(faults.value),
      kb: toKbFaults(kb.value),
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
      'sandbox.apiKey': async () => {
        const c = ctx.session.live?.connection;
        if (c?.kind !== 'sandbox') return notSandbox();
        return ok({ baseUrl: `${c.baseUrl}/api/assets/v1`, apiKey: c.apiKey });
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
          ...(patch.rateLimitedSeconds !== undefined
            ? { rate_limited_seconds: patch.rateLimitedSeconds }
            : {}),
        });
        if (!r.ok) return r;
        if (patch.rateLimitedSeconds)
          ctx.log(`sandbox: file API answering 429 for ${patch.rateLimitedSeconds} s`);
        const f = toFaults(r.value);
        ctx.log(
          `sandbox: faults now storage ${f.storageFailRate}, connection drops ${f.connectionResetRate}`,
        );
        return ok(f);
      },
      'sandbox.kbFaults': async (patch) => {
        const a = admin();
        if (!a) return notSandbox();
        const r = await a.kbFaults({
          ...(patch.offline !== undefined ? { offline: patch.offline } : {}),
          ...(patch.rateLimitedSeconds !== undefined
            ? { rate_limited_seconds: patch.rateLimitedSeconds }
            : {}),
        });
        if (!r.ok) return r;
        const k = toKbFaults(r.value);
        ctx.log(
          `sandbox: entry API ${k.offline ? 'offline' : 'online'}${k.rateLimitedUntil ? ', answering 429' : ''}`,
        );
        return ok(k);
      },
      'sandbox.changeEntry': async ({ entryId }) => {
        const a = admin();
        if (!a) return notSandbox();
        const bot = sandboxRemoteBotId(ctx.db);
        if (bot === null)
          return err(appError('NO-DEMO-BOT', 'The sandbox has no demo bot in Knowledge yet.'));
        const target = remoteEntryOf(ctx, entryId);
        if (!target)
          return err(
            appError(
              'NO-ENTRY',
              'No entry of the demo bot is on the service yet: add one in Knowledge first.',
            ),
          );
        const r = await a.changeEntry(bot, target.remoteId);
        if (!r.ok) return r;
        ctx.log(`sandbox: entry ${target.remoteId} changed on the service`);
        return ok({
          title: r.value.entry.title,
          said: `"${target.title}" was changed on the service, as another editor would change it. Edit it here before the app's next refresh and the edit meets a conflict: the real service keeps the other editor's version and this app asks which to keep.`,
        });
      },
      'sandbox.deleteFile': async ({ fileId }) => {
        if (!admin()) return notSandbox();
        const live = ctx.session.live;
        if (!live) return notSandbox();
        const row = liveRowOf(ctx, fileId);
        if (!row)
          return err(
            appError('NO-LIVE-FILE', 'No file of a watched folder is live yet: add a folder first.'),
          );
        const r = await live.client.deleteFile(row.remoteId);
        if (!r.ok) return err(r.error);
        ctx.log(`sandbox: remote file ${row.remoteId} deleted behind the app's back`);
        return ok({
          name: row.name,
          said: `${row.name} was deleted on the service, as another device or the service's console would. The real service tells no one: the app learns it when the file index next walks the bucket (at most daily) or a read of it answers 410, and the copy on this computer stays.`,
        });
      },
    },
  };
}

function toKbFaults(k: { offline: boolean; rate_limited_until: string | null }) {
  return {
    offline: k.offline,
    rateLimitedUntil: k.rate_limited_until ? Date.parse(k.rate_limited_until) : null,
  };
}

/** The demo bot's entry to change: the one asked for (by local id), else the most recently changed. */
function remoteEntryOf(
  ctx: AppContext,
  localId: number | undefined,
): { remoteId: number; title: string } | null {
  const r = statements(ctx.db)(
    `SELECT e.remote_id AS remoteId, e.title AS title FROM kb_entries e JOIN kb_bots b ON b.local_id = e.bot_local_id
       WHERE b.is_sandbox = 1 AND e.remote_id IS NOT NULL AND e.locally_deleted = 0 AND (? IS NULL OR e.local_id = ?)
       ORDER BY e.local_id DESC LIMIT 1`,
  ).get(localId ?? null, localId ?? null) as { remoteId: number; title: string } | undefined;
  return r ?? null;
}

/** A live file of a watched folder: the one asked for (by row id), else the newest live one. */
function liveRowOf(ctx: AppContext, fileId: number | undefined): { remoteId: number; name: string } | null {
  const r = statements(ctx.db)(
    `SELECT remote_id AS remoteId, name FROM sync_files
       WHERE state = 'LIVE' AND remote_id IS NOT NULL AND (? IS NULL OR id = ?)
       ORDER BY updated_at DESC LIMIT 1`,
  ).get(fileId ?? null, fileId ?? null) as { remoteId: number; name: string } | undefined;
  return r ?? null;
}
