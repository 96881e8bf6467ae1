import { useRef, useState } from 'react';
import type { FolderMode } from '../../../src-shared/contract';
import { BUCKET_RULE_MESSAGE, isValidBucket } from '../../../src-shared/domain/bucket';
import { call, platform } from '../../api/core-ref';
import { FormError, TextField } from '../../components/Field';
import { usePanelFocus } from '../../components/focus-return';
import { useAccount } from '../../stores/account-store';
import { useSync } from '../../stores/sync-store';
import { useUi } from '../../stores/ui-store';
import { useFolderPreview } from './FolderPreview';
import { OutsideLinksToggle } from './OutsideLinksToggle';

/** In Electron the folder comes from the native dialog; in a browser the path is typed. */
export function AddFolderForm({ onDone }: { onDone(): void }) {
  const canPick = platform().canPickFolder;
  const defaultBucket = useAccount((s) => s.account?.value?.client.default_bucket ?? 'default');
  const [path, setPath] = useState('');
  const [bucket, setBucket] = useState('');
  const [mode, setMode] = useState<FolderMode>('upload-only');
  const [followOutsideLinks, setFollowOutsideLinks] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const form = useRef<HTMLFormElement>(null);
  usePanelFocus(form, onDone);
  const target = bucket || defaultBucket;
  const bucketOk = isValidBucket(target);
  const preview = useFolderPreview(
    { path, bucket: target, mode, followOutsideLinks },
    !bucketOk || !path.trim(),
  );

  return (
    <form
      ref={form}
      className="card stack"
      aria-label="Add a folder"
      onSubmit={async (e) => {
        e.preventDefault();
        setBusy(true);
        setError(null);
        const r = await call('sync.folders.add', { path, bucket: target, mode, followOutsideLinks });
        setBusy(false);
        if (!r.ok) return setError(r.error.message);
        useUi.getState().toast('info', `Watching ${r.value.path}`);
        await useSync.getState().load();
        onDone();
      }}
    >
      <h2>Add a folder</h2>
      <div className="row" style={{ alignItems: 'flex-end' }}>
        <TextField
          label="Folder on this computer"
          flex="3 1 16rem"
          name="path"
          value={path}
          required
          placeholder="/home/me/Pictures/site"
          onChange={setPath}
          readOnly={canPick && path === ''}
        />
        {canPick ? (
          <button
            type="button"
            className="btn"
            onClick={async () => {
              const picked = await platform().pickFolder();
              if (picked) setPath(picked);
            }}
          >
            Choose…
          </button>
        ) : null}
        <TextField
          label="Bucket"
          flex="1 1 9rem"
          name="bucket"
          value={bucket}
          placeholder={defaultBucket}
          onChange={(v) => setBucket(v.trim())}
          aria-invalid={!bucketOk}
        />
        <label className="field" style={{ flex: '1 1 11rem' }}>
          When a local file is deleted
          <select name="mode" value={mode} onChange={(e) => setMode(e.target.value as FolderMode)}>
            <option value="upload-only">Keep the online copy</option>
            <option value="mirror">Delete it online too</option>
          </select>
        </label>
      </div>
      <OutsideLinksToggle checked={followOutsideLinks} onChange={setFollowOutsideLinks} />
      {!bucketOk ? <span className="error-text">{BUCKET_RULE_MESSAGE}</span> : null}
      <FormError message={error} />
      <div className="row" style={{ flexWrap: 'wrap' }}>
        {preview.button}
        <span className="spacer" />
        <button type="button" className="btn ghost" onClick={onDone}>
          Cancel
        </button>
        <button type="submit" className="btn primary" disabled={busy || !bucketOk || !path.trim()}>
          {busy ? 'Adding…' : 'Start syncing'}
        </button>
      </div>
      {preview.report}
    </form>
  );
}
