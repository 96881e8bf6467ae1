import { useEffect, useState } from 'react';
import type { BrokenEntry, IndexSummary, Selection } from '../../../src-shared/contract';
import { rentSavingSentence } from '../../../src-shared/domain/rent-saving';
import { call } from '../../api/core-ref';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { formatBytes } from '../../lib/format';
import { plural } from '../../lib/plural';
import { useAccount } from '../../stores/account-store';

/**
 * The confirmation of a delete (one file or many): how many files and bytes, the daily rent it saves
 * at the account's price (the service's rule, src-shared/domain/money.ts), and the knowledge entries
 * that cite them and would answer with a dead link. Counted by the core over the whole selection,
 * not the rows loaded.
 */
export function BulkDeleteDialog(props: {
  selection: Selection | null;
  /** The file's name when the selection is one file (its row's delete button). */
  name?: string | undefined;
  onCancel(): void;
  onConfirm(selection: Selection): void;
}) {
  const { selection } = props;
  const account = useAccount((s) => s.account);
  const [summary, setSummary] = useState<IndexSummary | null>(null);
  const [broken, setBroken] = useState<BrokenEntry[] | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    setSummary(null);
    setBroken(null);
    setError(null);
    if (!selection) return;
    let live = true;
    void call('files.selection.summary', selection).then((r) => {
      if (!live) return;
      if (r.ok) setSummary(r.value);
      else setError(r.error.message);
    });
    void call('files.linksBrokenBy', selection).then((r) => {
      if (live && r.ok) setBroken(r.value.entries);
    });
    // Today's bytes and price, not the copy from the app's start: the rent saved is measured on them.
    void useAccount.getState().loadAccount(true);
    return () => {
      live = false;
    };
  }, [selection]);

  const a = account?.value ?? null;
  const saved =
    summary && a ? rentSavingSentence(a.usage.bytes_used, summary.bytes, a.pricing.per_gb_month_paise) : null;
  const count = summary?.count ?? 0;
  const one = props.name !== undefined && count <= 1;

  return (
    <ConfirmDialog
      open={selection !== null}
      title={one ? `Delete ${props.name}?` : summary ? `Delete ${plural(count, 'file')}?` : 'Delete files?'}
      confirmLabel={one ? 'Delete file' : summary ? `Delete ${plural(count, 'file')}` : 'Delete'}
      danger
      onCancel={props.onCancel}
      onConfirm={() => {
        if (selection && summary && summary.count > 0) props.onConfirm(selection);
      }}
    >
      <div data-testid="delete-confirmation">
        {error ? <p role="alert">{error}</p> : null}
        {summary ? (
          <p>
            <strong>{plural(count, 'file')}</strong> ({formatBytes(summary.bytes)}) stop being served at once;
            anyone using their links gets an error. This cannot be undone.
          </p>
        ) : (
          <p>Counting the selection…</p>
        )}
        {saved !== null && a ? <p data-testid="rent-saved">{saved}</p> : null}
        {broken && broken.length > 0 ? (
          <div role="alert" data-testid="broken-entries">
            <strong>
              {broken.length === 1
                ? '1 knowledge entry cites these files'
                : `${broken.length} knowledge entries cite these files`}
            </strong>{' '}
            and would answer with a dead link:
            <ul className="broken-entries">
              {broken.map((e) => (
                <li key={e.entryId}>{e.title || `Entry ${e.entryId}`}</li>
              ))}
            </ul>
          </div>
        ) : null}
      </div>
    </ConfirmDialog>
  );
}
