import type { Account } from '../../../../src-shared/api/file-hosting';
import type { KbBotView } from '../../../../src-shared/contract/kb';
import { wantsAPerson } from '../../../../src-shared/contract/leads';
import { formatRupees } from '../../../../src-shared/domain/money';
import { formatIstPeriod, formatServiceTime } from '../../../../src-shared/domain/time-format';
import { statements } from '../../../shared-node/statements';
import { activityRecorder } from '../activity-record';
import type { AppContext } from '../context';
import { createRunwayAlerts } from '../runway-alerts';
import type { Section } from '../section';

/**
 * Runway alerts and the daily digest: every fresh /me (`account.changed`) is checked on the service
 * clock; a threshold newly crossed goes out as a `notify` event (the Electron shell makes it a desktop
 * notification, the browser a toast or a Notification), the digest as an activity line.
 */
export function alertsSection(ctx: AppContext): Section {
  const record = activityRecorder(ctx);
  const arrears = arrearsNotes(ctx, record);
  const alerts = createRunwayAlerts({
    db: ctx.db,
    activity: record,
    offsets: () => history.read(),
  });
  const history = clockHistory(ctx);
  let unsubscribe: (() => void) | null = null;
  const conflicts = conflictsNoted(ctx);
  const kbPeriods = kbApiPeriods(record);
  return {
    name: 'alerts',
    handlers: {},
    start() {
      history.note(ctx.clock.get().offsetMs);
      unsubscribe = ctx.bus.subscribe((e) => {
        if (e.event === 'clock.changed') history.note(e.payload.offsetMs);
        // A lead is something a person looks for in Activity too, not only in Leads (issue 34).
        if (e.event === 'leads.new') {
          const l = e.payload;
          const who = `${l.name || 'A visitor without a name'} (${l.botName})`;
          record('lead', wantsAPerson(l) ? `${who} wants a person to get in touch.` : `New lead: ${who}.`);
          return;
        }
        if (e.event === 'kb.botsChanged') {
          for (const bot of e.payload.bots) kbPeriods(bot);
          return;
        }
        // A knowledge entry changed in two places waits for a person; Activity says so once (issue 34).
        if (e.event === 'kb.changed') {
          kbPeriods(e.payload.bot);
          for (const entry of e.payload.entries) {
            const key = `${entry.botId}:${entry.id}`;
            if (entry.state !== 'conflict') conflicts.forget(key);
            else if (conflicts.note(key)) {
              record(
                'kb-conflict',
                `The knowledge entry "${entry.title}" (${e.payload.bot.name}) changed on the server too: open it in Knowledge to choose which to keep.`,
              );
            }
          }
          return;
        }
        if (e.event !== 'account.changed' || !e.payload.value || e.payload.offline) return;
        arrears(e.payload.value);
        const days = ctx.settings.get().runwayAlertDays;
        for (const w of alerts.onAccount(e.payload.value, ctx.clock.now(), days))
          ctx.bus.emit('notify', { kind: 'runway', title: w.title, body: w.body });
      });
    },
    close() {
      unsubscribe?.();
    },
  };
}

const ARREARS_KEY = 'arrears-noted';

/**
 * Arrears in Activity (issue 34: only a toast said so): a line when the account falls into arrears and
 * one when they are paid. The arrears noted (their start as the service wrote it) are kept in
 * `app_settings`, so arrears that began while the app was closed get their line, and none twice.
 */
function arrearsNotes(ctx: AppContext, record: (kind: string, message: string) => void) {
  const prep = statements(ctx.db);
  const get = () =>
    prep<[string], { value: string }>('SELECT value FROM app_settings WHERE key = ?').get(ARREARS_KEY)
      ?.value ?? '';
  const set = (v: string) =>
    prep(
      'INSERT INTO app_settings (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value',
    ).run(ARREARS_KEY, v);
  return (me: Account) => {
    const noted = get();
    if (me.arrears.paise > 0) {
      const since = me.arrears.since ?? 'unknown';
      if (noted === since) return;
      set(since);
      record(
        'arrears',
        `Rent unpaid: ${formatRupees(me.arrears.paise)} in arrears${me.arrears.since ? ` since ${formatServiceTime(me.arrears.since)}` : ''}. Uploads are paused until a top-up covers it${me.arrears.deadline ? `; the account and its files are removed at ${formatServiceTime(me.arrears.deadline)}` : ''}.`,
      );
    } else if (noted !== '') {
      set('');
      record('arrears-paid', 'The arrears are paid: uploads resume.');
    }
  };
}

/**
 * The knowledge-entry API out of reach, or answering 429, as periods (issue 34): one Activity line per bot
 * when its sync is clean again, saying from when to when; a round in between (syncing) keeps it open.
 */
function kbApiPeriods(record: (kind: string, message: string) => void) {
  const open = new Map<number, { kind: 'offline' | 'limited'; from: number }>();
  return (bot: KbBotView) => {
    const kind =
      bot.sync.state === 'offline'
        ? 'offline'
        : bot.sync.error?.code === 'KB-RATE-LIMITED'
          ? 'limited'
          : null;
    const was = open.get(bot.id);
    if (kind) {
      if (!was) open.set(bot.id, { kind, from: Date.now() });
      return;
    }
    if (!was || bot.sync.state !== 'idle' || bot.sync.error) return;
    open.delete(bot.id);
    const period = formatIstPeriod(was.from, Date.now());
    if (was.kind === 'offline')
      record(
        'kb-offline',
        `The knowledge-entry API (${bot.name}) did not answer ${period}; edits made meanwhile waited on this computer and are sent.`,
      );
    else
      record(
        'kb-rate-limited',
        `The knowledge-entry API (${bot.name}) asked us to slow down ${period}; nothing was lost: edits waited and are sent.`,
      );
  };
}

const CONFLICTS_KEY = 'kb-conflicts-noted';

/**
 * The knowledge entries in conflict whose line Activity has (bot:entry), kept in `app_settings`: the
 * first snapshot after a restart shows every open conflict again, and each is one line, not one a start
 * (issue 34). An entry out of conflict is forgotten, so a later conflict of it gets its own line.
 */
function conflictsNoted(ctx: AppContext) {
  const prep = statements(ctx.db);
  const read = (): Set<string> => {
    const row = prep<[string], { value: string }>('SELECT value FROM app_settings WHERE key = ?').get(
      CONFLICTS_KEY,
    );
    try {
      const v = row ? (JSON.parse(row.value) as unknown) : [];
      return new Set(Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);
    } catch {
      return new Set();
    }
  };
  const write = (keys: Set<string>) =>
    prep(
      'INSERT INTO app_settings (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value',
    ).run(CONFLICTS_KEY, JSON.stringify([...keys]));
  const keys = read();
  return {
    /** True when `key` is newly noted (its line is to be written). */
    note(key: string): boolean {
      if (keys.has(key)) return false;
      keys.add(key);
      write(keys);
      return true;
    },
    forget(key: string): void {
      if (keys.delete(key)) write(keys);
    },
  };
}

const HISTORY_KEY = 'service-clock-history';
const HISTORY_MAX = 200;

/**
 * The service clock's offsets over time, kept in `app_settings` so a digest after a restart still
 * places each upload on its day: a new entry each time the offset moves (the sandbox's clock advanced,
 * an account on another clock), the oldest dropped past 200.
 */
function clockHistory(ctx: AppContext) {
  const prep = statements(ctx.db);
  const read = (): { from: number; offsetMs: number }[] => {
    const row = prep<[string], { value: string }>('SELECT value FROM app_settings WHERE key = ?').get(
      HISTORY_KEY,
    );
    try {
      const v = row ? (JSON.parse(row.value) as unknown) : [];
      return Array.isArray(v) ? (v as { from: number; offsetMs: number }[]) : [];
    } catch {
      return [];
    }
  };
  return {
    read,
    note(offsetMs: number) {
      const list = read();
      if (list.at(-1)?.offsetMs === offsetMs) return;
      const next = [...list, { from: Date.now(), offsetMs }].slice(-HISTORY_MAX);
      prep(
        'INSERT INTO app_settings (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value',
      ).run(HISTORY_KEY, JSON.stringify(next));
    },
  };
}
