import { useAnnouncer } from '../stores/announcer';

/** The page's one polite live region for changes nobody looks at (stores/announcer.ts). */
export function Announcer() {
  const text = useAnnouncer((s) => s.text);
  const n = useAnnouncer((s) => s.n);
  return (
    <div
      className="visually-hidden"
      role="status"
      aria-live="polite"
      aria-atomic="true"
      data-testid="announcer"
    >
      <span key={n}>{text}</span>
    </div>
  );
}
