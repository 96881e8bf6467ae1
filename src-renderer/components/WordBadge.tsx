/**
 * A word of the status model as a badge with its dot: its tone, its detail as the tooltip. The sidebar's
 * app word and the Leads header's link word are drawn by this one piece, so they look and read alike.
 */
export function WordBadge(props: {
  tone: string;
  word: string;
  detail: string | null;
  testId: string;
  /** `data-*` attributes that name the state for tests and styles (`{ state: 'in-sync' }`). */
  data?: Record<string, string>;
}) {
  const data = Object.fromEntries(Object.entries(props.data ?? {}).map(([k, v]) => [`data-${k}`, v]));
  return (
    <span
      className={`badge ${props.tone}`}
      data-testid={props.testId}
      title={props.detail ?? undefined}
      {...data}
    >
      <span className="dot" /> {props.word}
    </span>
  );
}
