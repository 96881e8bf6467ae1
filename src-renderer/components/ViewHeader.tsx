import { formatAgo } from '../lib/format';

export function ViewHeader(props: {
  title: string;
  children?: React.ReactNode;
  fetchedAt?: number | null;
  offline?: boolean;
}) {
  return (
    <header className="header">
      <h1 id="view-title">{props.title}</h1>
      {props.offline ? (
        <span className="badge warn" title="The service could not be reached; showing the stored copy">
          Offline · from {formatAgo(props.fetchedAt ?? null)}
        </span>
      ) : props.fetchedAt !== undefined ? (
        <span className="small muted">Updated {formatAgo(props.fetchedAt ?? null)}</span>
      ) : null}
      <div className="actions">{props.children}</div>
    </header>
  );
}
