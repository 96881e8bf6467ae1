import { formatAgo } from '../lib/format';
import { useMachineNow } from '../stores/clock-store';

export function ViewHeader(props: {
  title: string;
  children?: React.ReactNode;
  fetchedAt?: number | null;
  offline?: boolean;
  /** The view's state beside its title (the Leads view's link), in the status model's words. */
  status?: React.ReactNode;
}) {
  // fetchedAt is stamped by the core on this machine's clock: the age is measured on the same clock
  // (the service's offset would cancel out), and re-rendered so it keeps counting.
  const now = useMachineNow();
  return (
    <header className="header">
      <h1 id="view-title">{props.title}</h1>
      {props.status}
      {props.offline ? (
        <span className="badge warn" title="The service could not be reached; showing the stored copy">
          Offline · from {formatAgo(props.fetchedAt ?? null, now)}
        </span>
      ) : props.fetchedAt !== undefined ? (
        <span className="small muted" data-fetched-at={props.fetchedAt ?? ''}>
          Updated {formatAgo(props.fetchedAt ?? null, now)}
        </span>
      ) : null}
      <div className="actions">{props.children}</div>
    </header>
  );
}

/**
 * What a scroll box needs to be reached and scrolled by keyboard (WCAG 2.1.1, axe's
 * scrollable-region-focusable): a tab stop, named. Spread on each view's `.content` box, whose name
 * is the view's heading.
 */
export const SCROLL_REGION = { tabIndex: 0, role: 'region', 'aria-labelledby': 'view-title' } as const;
