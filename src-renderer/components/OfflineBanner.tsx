import { useEffect, useRef, useState } from 'react';
import { clockTime, inHowLong } from '../lib/clock-time';
import { plural } from '../lib/plural';
import { useMachineNow } from '../stores/clock-store';
import { useSync } from '../stores/sync-store';
import { CheckNowButton } from './CheckNowButton';
import { Icon } from './Icon';

/** How long "Back online" stays up after the service answers again. */
const BACK_ONLINE_SHOWN_MS = 20_000;

/**
 * Across every view: the service gives no answer (the core's connectivity, never guessed here): since
 * when, what waits, when the next try is. When it answers again, says so for a while.
 */
export function OfflineBanner() {
  const offline = useSync((s) => s.overview?.offline ?? null);
  const now = useMachineNow(1000);
  const [backAt, setBackAt] = useState<number | null>(null);
  const was = useRef(false);
  useEffect(() => {
    if (offline) setBackAt(null);
    else if (was.current) setBackAt(Date.now());
    was.current = offline !== null;
  }, [offline]);

  if (offline) {
    return (
      <div className="banner warn" role="status" data-testid="offline-banner">
        <span style={{ width: '1.25rem', flex: 'none' }}>
          <Icon name="alert" />
        </span>
        <div>
          <strong>Offline since {clockTime(offline.since)}</strong>
          <span className="body small">
            The service gives no answer, so {plural(offline.waiting, 'file')} wait
            {offline.waiting === 1 ? 's' : ''} to upload; the next try is at{' '}
            <span className="num" data-testid="offline-next">
              {clockTime(offline.nextTryAt)} (
              {offline.nextTryAt > now ? inHowLong(offline.nextTryAt, now) : 'trying now'})
            </span>{' '}
            and uploads resume by themselves. <CheckNowButton />
          </span>
        </div>
      </div>
    );
  }
  if (backAt !== null && now - backAt < BACK_ONLINE_SHOWN_MS) {
    return (
      <div className="banner ok" role="status" data-testid="online-banner">
        <span style={{ width: '1.25rem', flex: 'none' }}>
          <Icon name="check" />
        </span>
        <div>
          <strong>Back online</strong>
          <span className="body small">The service answers again; waiting uploads resume.</span>
        </div>
      </div>
    );
  }
  return null;
}
