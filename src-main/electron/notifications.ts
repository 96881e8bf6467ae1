import { Notification } from 'electron';
import type { AnyEvent, Settings } from '../../src-shared/contract';

export interface DesktopNotice {
  title: string;
  body: string;
  /** Same key within the quiet window: shown once (a folder that flips in and out of sync). */
  key: string;
  /** Money and errors ask to be noticed; a folder in sync does not. */
  urgency: 'normal' | 'critical' | 'low';
}

/** The same notice again within this window is dropped: one per moment, not one per file. */
export const QUIET_MS = 60_000;

/** Which core events deserve a native notification, and what it says. */
export function noticeFor(e: AnyEvent): DesktopNotice | null {
  if (e.event === 'notify') {
    const p = e.payload;
    return {
      title: p.title,
      body: p.body,
      key: `${p.kind}:${p.body}`,
      urgency: p.kind === 'in-sync' ? 'low' : p.kind === 'error' ? 'critical' : 'normal',
    };
  }
  if (e.event === 'leads.new') {
    const l = e.payload;
    const who = l.name.trim() || 'A visitor';
    const contact = [l.email, l.phone].filter((x) => x.trim()).join(' · ');
    const handoff = l.event === 'HANDOFF-REQUESTED' || l.askedForAPerson;
    return {
      title: handoff ? `${who} asked for a person` : `New lead: ${who}`,
      body: [`${l.botName}${l.businessName ? ` (${l.businessName})` : ''}`, contact, l.note ?? '']
        .filter(Boolean)
        .join('\n'),
      key: `lead:${l.id}`,
      urgency: handoff ? 'critical' : 'normal',
    };
  }
  if (e.event === 'leads.arrived')
    return {
      title: `${e.payload.count} new leads`,
      body: 'They came through the relay while this desk was away.',
      key: `leads-arrived:${e.payload.count}`,
      urgency: 'normal',
    };
  return null;
}

type NotificationCtor = new (o: {
  title: string;
  body: string;
  urgency?: 'normal' | 'critical' | 'low';
  silent?: boolean;
}) => { show(): void; on(event: 'click', listener: () => void): unknown };

/**
 * Turns core events into native notifications when the setting allows and the OS supports them.
 * A click opens the window. The constructor is injectable for tests (Electron cannot run here).
 */
export function createNotifier(o: {
  settings: () => Settings | null;
  open: () => void;
  now?: () => number;
  Notification?: NotificationCtor & { isSupported(): boolean };
}) {
  const N = o.Notification ?? Notification;
  const now = o.now ?? Date.now;
  const lastShown = new Map<string, number>();
  return {
    handle(e: AnyEvent): DesktopNotice | null {
      if (!o.settings()?.notifications || !N.isSupported()) return null;
      const notice = noticeFor(e);
      if (!notice) return null;
      const t = now();
      const last = lastShown.get(notice.key);
      if (last !== undefined && t - last < QUIET_MS) return null;
      lastShown.set(notice.key, t);
      const n = new N({
        title: notice.title,
        body: notice.body,
        urgency: notice.urgency,
        silent: notice.urgency === 'low',
      });
      n.on('click', o.open);
      n.show();
      return notice;
    },
  };
}
