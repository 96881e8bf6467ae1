import type { PayloadOf } from '../../src-shared/contract';
import { platform } from '../api/core-ref';
import { useUi } from './ui-store';

/**
 * A runway alert in the browser (the Electron shell shows it as a desktop notification itself): the
 * Notification API when the page may use it, and always an in-app toast.
 */
export function showRunwayNotice(p: PayloadOf<'notify'>): void {
  if (p.kind !== 'runway') return;
  useUi.getState().toast('error', `${p.title}. ${p.body}`);
  const N = (globalThis as { Notification?: typeof Notification }).Notification;
  if (!N || platform().kind !== 'browser' || useUi.getState().settings?.notifications === false) return;
  if (N.permission === 'granted') new N(p.title, { body: p.body });
  else if (N.permission === 'default') void N.requestPermission();
}
