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
  onChange(next: boolean): void;
  compact?: boolean;
}) {
  return (
    <label
      className={compact ? 'small muted row' : 'row'}
      style={{ gap: '0.35rem' }}
      title="Off: a link to a file outside this folder is skipped and listed with where it points."
    >
      <input
        type="checkbox"
        name="followOutsideLinks"
        checked={checked}
        onChange={(e) => onChange(e.target.checked)}
      />
      {compact ? 'Follow links outside' : 'Also upload files that links in this folder point to outside it'}
    </label>
  );
}
