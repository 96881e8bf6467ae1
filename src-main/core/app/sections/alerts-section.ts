import { activityStore } from '../../sync/state/activity-store';
import type { AppContext } from '../context';
import { createRunwayAlerts } from '../runway-alerts';
import type { Section } from '../section';

/**
 * Runway alerts and the daily digest: every fresh /me (`account.changed`) is checked on the service
 * clock; a threshold newly crossed goes out as a `notify` event (the Electron shell makes it a desktop
 * notification, the browser a toast or a Notification), the digest as an activity line.
 */
export function alertsSection(ctx: AppContext): Section {
  const activity = activityStore(ctx.db);
  const alerts = createRunwayAlerts({
    db: ctx.db,
    activity: (kind, message) => {
      const a = activity.add(kind, message);
      ctx.bus.emit('activity.added', { id: a.id, at: a.at, level: 'info', message: a.message });
    },
    toMachine: (ms) => ms - ctx.clock.get().offsetMs,
  });
  let unsubscribe: (() => void) | null = null;
  return {
    name: 'alerts',
    handlers: {},
    start() {
      unsubscribe = ctx.bus.subscribe((e) => {
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
