import { usePendingCheck } from '../../components/use-pending-check';
/**
 * The folder setting for links whose real path leaves the folder. Off by default: a link such as
 * photos/p.jpg -> ~/.ssh/id_ed25519 would otherwise put that file online, public.
 */
export function OutsideLinksToggle({
  checked,
  onChange,
  compact = false,
}: {
  checked: boolean;
  /** May return the save's promise: the box then shows the click at once (see usePendingCheck). */
  onChange(next: boolean): unknown;
  compact?: boolean;
}) {
  const [shown, change] = usePendingCheck(checked, onChange);
  return (
    <label
      className={compact ? 'small muted row' : 'row'}
      style={{ gap: '0.35rem' }}
      title="Off: a link to a file outside this folder is skipped and listed with where it points."
    >
      <input
        type="checkbox"
        name="followOutsideLinks"
        checked={shown}
        onChange={(e) => change(e.target.checked)}
      />
      {compact ? 'Follow links outside' : 'Also upload files that links in this folder point to outside it'}
    </label>
  );
}
