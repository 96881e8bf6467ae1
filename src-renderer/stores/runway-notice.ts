import type { PayloadOf } from '../../src-shared/contract';
import {
  RUNWAY_ALERT_DAYS_DEFAULT,
  runwayThresholdOf,
  runwayWarnings,
} from '../../src-shared/domain/runway-alerts';
import { platform } from '../api/core-ref';
import { useAccount } from './account-store';
import { useClock } from './clock-store';
import { useUi } from './ui-store';

/**
 * A runway alert in the browser (the Electron shell shows it as a desktop notification itself): the
 * Notification API when the page may use it, and always an in-app toast.
 */
export function showRunwayNotice(p: PayloadOf<'notify'>): void {
  if (p.kind !== 'runway') return;
  const threshold = runwayThresholdOf(p.title);
  useUi.getState().toast('error', `${p.title}. ${p.body}`, threshold ? `runway:${threshold}` : undefined);
  const N = (globalThis as { Notification?: typeof Notification }).Notification;
  if (!N || platform().kind !== 'browser' || useUi.getState().settings?.notifications === false) return;
  if (N.permission === 'granted') new N(p.title, { body: p.body });
  else if (N.permission === 'default') void N.requestPermission();
}

/**
 * A runway toast leaves once what it warned of no longer holds: "Rent unpaid: uploads are paused"
 * stayed on screen after a top-up had paid the arrears, beside a wallet of ₹99.61 and "In sync".
 * Returns its own stop.
 */
export function followRunwayToasts(): () => void {
  return useAccount.subscribe((s, before) => {
    const me = s.account?.value;
    if (!me || s.account === before.account) return;
    const days = useUi.getState().settings?.runwayAlertDays ?? RUNWAY_ALERT_DAYS_DEFAULT;
    const now = Date.now() + useClock.getState().clock.offsetMs;
    const holding = new Set(runwayWarnings(me, now, days).map((w) => `runway:${w.threshold}`));
    useUi.getState().dismissAbout((about) => !about.startsWith('runway:') || holding.has(about));
  });
}
