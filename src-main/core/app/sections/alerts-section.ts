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
  const alerts = createRunwayAlerts({
    db: ctx.db,
    activity: activityRecorder(ctx),
    offsets: () => history.read(),
  });
  const history = clockHistory(ctx);
  let unsubscribe: (() => void) | null = null;
  return {
    name: 'alerts',
    handlers: {},
    start() {
      history.note(ctx.clock.get().offsetMs);
      unsubscribe = ctx.bus.subscribe((e) => {
        if (e.event === 'clock.changed') history.note(e.payload.offsetMs);
        if (e.event !== 'account.changed' || !e.payload.value || e.payload.offline) return;
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
