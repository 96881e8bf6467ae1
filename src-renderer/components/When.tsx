import { formatIstTime, formatRelative } from '../../src-shared/domain/time-format';

/**
 * A moment as "3 min ago" (or "in 5 min") when it is within a day, else the labelled IST time; the exact
 * IST time is always in the tooltip. `now` is on the same clock as `at`.
 */
export function When(props: { at: number; now?: number; relative?: boolean }) {
  const now = props.now ?? Date.now();
  const exact = formatIstTime(props.at);
  return (
    <time dateTime={new Date(props.at).toISOString()} title={exact}>
      {props.relative === false ? exact : formatRelative(props.at, now)}
    </time>
  );
}
