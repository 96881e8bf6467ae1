import { useEffect, useState } from 'react';
import type {
  BrokenEntry,
  FolderFilesChoice,
  IndexSummary,
  Selection,
  SelectionFolder,
} from '../../../src-shared/contract';
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
 * not the rows loaded. When watched folders synced some of the files, it names the folders and asks
 * what they do next: stop syncing those files, or send them again (no default: either is a real change).
 */
export function BulkDeleteDialog(props: {
  selection: Selection | null;
  /** The file's name when the selection is one file (its row's delete button). */
  name?: string | undefined;
  onCancel(): void;
  onConfirm(selection: Selection, folderFiles?: FolderFilesChoice): void;
}) {
  const { selection } = props;
  const account = useAccount((s) => s.account);
  const [summary, setSummary] = useState<IndexSummary | null>(null);
  const [broken, setBroken] = useState<BrokenEntry[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [folders, setFolders] = useState<SelectionFolder[] | null>(null);
  const [choice, setChoice] = useState<FolderFilesChoice | null>(null);

  useEffect(() => {
    setSummary(null);
    setBroken(null);
    setError(null);
    setFolders(null);
    setChoice(null);
    if (!selection) return;
    let live = true;
    void call('files.selection.summary', selection).then((r) => {
      if (!live) return;
      if (r.ok) setSummary(r.value);
      else setError(r.error.message);
    });
    void call('files.selection.folders', selection).then((r) => {
      if (live && r.ok) setFolders(r.value.folders);
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
    summary && a
      ? rentSavingSentence(a.usage.bytes_used, summary.bytes, a.pricing.per_gb_month_paise, summary.count)
      : null;
  const count = summary?.count ?? 0;
  const one = props.name !== undefined && count <= 1;
  const inFolders = folders?.reduce((n, f) => n + f.count, 0) ?? 0;

  return (
    <ConfirmDialog
      open={selection !== null}
      title={one ? `Delete ${props.name}?` : summary ? `Delete ${plural(count, 'file')}?` : 'Delete files?'}
      confirmLabel={one ? 'Delete file' : summary ? `Delete ${plural(count, 'file')}` : 'Delete'}
      danger
      confirmDisabled={folders === null || (inFolders > 0 && choice === null)}
      onCancel={props.onCancel}
      onConfirm={() => {
        if (!selection || !summary || summary.count === 0 || folders === null) return;
        if (inFolders === 0) props.onConfirm(selection);
        else if (choice) props.onConfirm(selection, choice);
      }}
    >
      <div data-testid="delete-confirmation">
        {error ? <p role="alert">{error}</p> : null}
        {summary ? (
          <p>
            <strong>{plural(count, 'file')}</strong> ({formatBytes(summary.bytes)}){' '}
            {count === 1
              ? 'stops being served at once; anyone using its link gets an error.'
              : 'stop being served at once; anyone using their links gets an error.'}{' '}
            This cannot be undone.
          </p>
        ) : (
          <p>Counting the selection…</p>
        )}
        {saved !== null && a ? <p data-testid="rent-saved">{saved}</p> : null}
        {inFolders > 0 && folders ? (
          <FolderChoice folders={folders} total={inFolders} one={one} choice={choice} onChoice={setChoice} />
        ) : null}
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

/** The watched folders that synced some of the files, and the two things the delete may do to them. */
function FolderChoice(props: {
  folders: SelectionFolder[];
  total: number;
  one: boolean;
  choice: FolderFilesChoice | null;
  onChoice(c: FolderFilesChoice): void;
}) {
  const them = props.one ? 'it' : 'them';
  return (
    <fieldset className="folder-choice" data-testid="folder-choice">
      <legend>
        <strong>
          {props.one ? 'This file is' : `${plural(props.total, 'file')} ${props.total === 1 ? 'is' : 'are'}`}{' '}
          synced from {props.folders.length === 1 ? 'a watched folder' : 'watched folders'}:
        </strong>
      </legend>
      <ul className="folder-choice-folders">
        {props.folders.map((f) => (
          <li key={f.folderId} data-testid="folder-choice-folder">
            <span className="mono">{f.path}</span> ({f.mode === 'mirror' ? 'mirror' : 'upload only'}):{' '}
            {f.names.join(', ')}
            {f.count > f.names.length ? ` and ${f.count - f.names.length} more` : ''}
          </li>
        ))}
      </ul>
      <ChoiceOption value="stop-syncing" choice={props.choice} onChoice={props.onChoice}>
        <strong>Delete and stop syncing {them}</strong>: the {props.one ? 'file stays' : 'files stay'} on this
        computer, the folder lists {them} as removed from the CDN by you and never sends {them} again.
      </ChoiceOption>
      <ChoiceOption value="send-again" choice={props.choice} onChoice={props.onChoice}>
        <strong>Delete and let the folder send {them} again</strong>: {props.one ? 'it is' : 'they are'}{' '}
        uploaded again at once, under new links.
      </ChoiceOption>
    </fieldset>
  );
}

function ChoiceOption(props: {
  value: FolderFilesChoice;
  choice: FolderFilesChoice | null;
  onChoice(c: FolderFilesChoice): void;
  children: React.ReactNode;
}) {
  return (
    <label className="folder-choice-option">
      <input
        type="radio"
        name="folder-files"
        checked={props.choice === props.value}
        onChange={() => props.onChoice(props.value)}
      />
      <span>{props.children}</span>
    </label>
  );
}
