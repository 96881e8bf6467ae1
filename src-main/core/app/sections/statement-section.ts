import type { Statement } from '../../../../src-shared/contract/statement';
import { DAY_MS, formatIstDate } from '../../../../src-shared/domain/ist-time';
import { formatRupees } from '../../../../src-shared/domain/money';
import { monthOf } from '../../../../src-shared/domain/statement/month-statement';
import { appError, err, ok } from '../../../../src-shared/errors';
import { statementOfMonth } from '../../statement/month-of-account';
import { statementPdf } from '../../statement/statement-pdf';
import { statementStore } from '../../statement/statement-store';
import { serviceIdentity } from '../../sync/account/service-identity';
import type { AppContext } from '../context';
import { notConnected } from '../errors';
import { inBackground } from '../in-background';
import type { Section } from '../section';

/**
 * The admin's month (issue 35, docs/statement.md): every /me the app reads is kept (a run of equal
 * reads is one row), the service clock's offset is kept for the index's removal triggers, and
 * `statement.get` / `statement.pdf` tell a month. A day newly flagged is told once as a runway alert.
 */
/** A read whose service time moved by more than this while it was kept is dated on neither side. */
const AMBIGUOUS_MS = 5_000;

export function statementSection(ctx: AppContext): Section {
  const store = statementStore(ctx.db);
  const offs: (() => void)[] = [];
  /** The /me reads being kept, in order; a statement waits for them. */
  let notes: Promise<void> = Promise.resolve();

  const build = async (month: string | undefined, refresh: boolean, readMe = true) => {
    const live = ctx.session.live;
    const source = ctx.cacheSource();
    if (!live || !source) return null;
    if (refresh) await ctx.clock.refresh();
    return statementOfMonth(
      {
        db: ctx.db,
        client: live.client,
        source,
        service: serviceIdentity(live.connection, ctx.dataDir),
        now: () => ctx.clock.now(),
        refresh,
        readMe,
        settle: () => notes,
      },
      month,
    );
  };

  const alertFlags = (s: Statement) => {
    const source = ctx.cacheSource();
    if (!source || !s.flags.length) return;
    const told = new Set(
      store.takeUntold(
        { source, clientId: s.account.clientId },
        [...new Set(s.flags.map((f) => f.date))],
        ctx.clock.now(),
      ),
    );
    for (const f of s.flags.filter((x) => told.has(x.date))) {
      const title = f.kind === 'charge' ? "A day's rent does not fit" : "A day's measured bytes do not fit";
      ctx.bus.emit('notify', { kind: 'runway', title, body: f.sentence });
      ctx.log(`statement: flagged ${f.date} (${f.kind}, ${formatRupees(f.differencePaise)})`);
    }
  };

  // Once a service day, at the first fresh /me of it: the day just charged is checked and a flag told,
  // whether or not the Statement view is opened. It reads /usage and the index, not /me again: that /me
  // was just read, and a read made in the background could be dated across a sandbox's clock move.
  let checkedDay: string | null = null;
  const checkDaily = () => {
    const now = ctx.clock.now();
    const day = formatIstDate(now);
    if (day === checkedDay) return;
    checkedDay = day;
    inBackground(ctx.log, 'statement: the daily check', async () => {
      const built = await build(monthOf(now - DAY_MS), true, false);
      if (built?.ok) alertFlags(built.value);
    });
  };

  return {
    name: 'statement',
    handlers: {
      'statement.get': async (r) => {
        const built = await build(r.month, r.refresh);
        if (!built) return notConnected();
        if (built.ok) alertFlags(built.value);
        return built;
      },
      'statement.pdf': async (r) => {
        const built = await build(r.month, r.refresh);
        if (!built) return notConnected();
        if (!built.ok) return built;
        try {
          const bytes = await statementPdf(built.value);
          return ok({
            fileName: `statement-${built.value.month}.pdf`,
            base64: Buffer.from(bytes).toString('base64'),
          });
        } catch (e) {
          return err(
            appError(
              'STATEMENT-PDF',
              `The PDF could not be made: ${e instanceof Error ? e.message : String(e)}`,
            ),
          );
        }
      },
    },
    start() {
      store.setClockOffset(ctx.clock.get().offsetMs);
      offs.push(
        ctx.bus.subscribe((e) => {
          if (e.event === 'clock.changed') store.setClockOffset(e.payload.offsetMs);
          if (e.event === 'account.changed' && e.payload.value && !e.payload.offline) checkDaily();
        }),
        ctx.account.onSeen((source, me) => {
          const at = ctx.clock.now();
          notes = notes.then(() =>
            ctx.clock.refresh().then(
              () => {
                // A sandbox's clock moved while this answer was on its way (the engine's poll beside a
                // move): which side of the move it shows is unknown, so it is not kept. A real account's
                // offset comes from this very reply's Date header, and does not move here.
                if (ctx.clock.now() - at > AMBIGUOUS_MS) return;
                store.noteRead({ source, clientId: me.client.id }, me, at);
              },
              (e: unknown) =>
                ctx.log(`statement: a /me read not kept: ${e instanceof Error ? e.message : String(e)}`),
            ),
          );
        }),
      );
    },
    close() {
      for (const off of offs.splice(0)) off();
    },
  };
}
