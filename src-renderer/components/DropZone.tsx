import { useEffect, useState } from 'react';
import { BUCKET_RULE_MESSAGE, isValidBucket } from '../../src-shared/domain/bucket';
import { ALLOWED_EXTENSIONS, extensionOf } from '../../src-shared/domain/extensions';
import { MAX_FILE_BYTES } from '../../src-shared/domain/limits';
import { platform } from '../api/core-ref';
import { formatBytes } from '../lib/format';
import { plural } from '../lib/plural';
import { useAccount } from '../stores/account-store';
import { useUi } from '../stores/ui-store';
import { Icon } from './Icon';

/**
 * Files dragged anywhere onto the window: an overlay while dragging, then a short dialog that names
 * the bucket before anything is sent. They join the same queue as folder files.
 */
export function DropZone() {
  const [dragging, setDragging] = useState(false);
  const [dropped, setDropped] = useState<File[] | null>(null);
  const defaultBucket = useAccount((s) => s.account?.value?.client.default_bucket ?? 'default');
  const allowed: readonly string[] = useAccount(
    (s) => s.account?.value?.pricing.allowed_extensions ?? ALLOWED_EXTENSIONS,
  );
  const ceiling = useAccount((s) => s.account?.value?.pricing.max_file_bytes ?? MAX_FILE_BYTES);
  const [bucket, setBucket] = useState(() => localStorage.getItem('drop-bucket') ?? '');
  const toast = useUi((s) => s.toast);
  const go = useUi((s) => s.go);

  useEffect(() => {
    let depth = 0;
    const hasFiles = (e: DragEvent) => Array.from(e.dataTransfer?.types ?? []).includes('Files');
    const enter = (e: DragEvent) => {
      if (!hasFiles(e)) return;
      depth++;
      setDragging(true);
    };
    const leave = () => {
      depth = Math.max(0, depth - 1);
      if (depth === 0) setDragging(false);
    };
    const over = (e: DragEvent) => {
      if (hasFiles(e)) e.preventDefault();
    };
    const drop = (e: DragEvent) => {
      if (!hasFiles(e)) return;
      e.preventDefault();
      depth = 0;
      setDragging(false);
      const files = Array.from(e.dataTransfer?.files ?? []);
      if (files.length) setDropped(files);
    };
    window.addEventListener('dragenter', enter);
    window.addEventListener('dragleave', leave);
    window.addEventListener('dragover', over);
    window.addEventListener('drop', drop);
    return () => {
      window.removeEventListener('dragenter', enter);
      window.removeEventListener('dragleave', leave);
      window.removeEventListener('dragover', over);
      window.removeEventListener('drop', drop);
    };
  }, []);

  const target = bucket || defaultBucket;
  const valid = isValidBucket(target);
  // The service's checks, before a byte is sent: what it would refuse is named and left out.
  const refusal = (f: File): string | null => {
    const ext = extensionOf(f.name);
    if (!ext || !allowed.includes(ext)) return ext ? `.${ext} files are not accepted` : 'no extension';
    if (f.size === 0) return 'empty';
    if (f.size > ceiling) return `over the ${formatBytes(ceiling)} limit`;
    return null;
  };
  const sendable = dropped?.filter((f) => !refusal(f)) ?? [];

  const send = async () => {
    if (!sendable.length || !valid) return;
    localStorage.setItem('drop-bucket', target);
    const files = sendable;
    setDropped(null);
    const r = await platform().uploadDropped(files, target);
    if (r.ok) {
      toast('info', `${plural(r.value.queued, 'file')} queued for ${target}.`);
      go('folders');
    } else toast('error', r.error.message);
  };

  return (
    <>
      {dragging ? (
        <div className="drop-overlay" aria-hidden="true">
          <div className="card">
            <div style={{ width: '2.5rem', margin: '0 auto 0.5rem', color: 'var(--accent)' }}>
              <Icon name="upload" />
            </div>
            <h2>Drop to upload</h2>
            <p className="muted">You choose the bucket next.</p>
          </div>
        </div>
      ) : null}
      {dropped ? (
        <div className="drop-overlay">
          <div
            className="card stack"
            role="dialog"
            aria-modal="true"
            aria-labelledby="drop-title"
            style={{ maxWidth: '28rem' }}
          >
            <h2 id="drop-title">
              Upload {plural(sendable.length, 'file')} (
              {formatBytes(sendable.reduce((n, f) => n + f.size, 0))})
            </h2>
            <ul
              className="small muted"
              style={{ margin: 0, paddingLeft: '1.1rem', maxHeight: '8rem', overflow: 'auto' }}
            >
              {dropped.slice(0, 20).map((f) => {
                const why = refusal(f);
                return (
                  <li key={f.name} data-testid={why ? 'drop-refused' : 'drop-file'}>
                    {f.name}
                    {why ? <span className="error-text"> — not sent: {why}</span> : null}
                  </li>
                );
              })}
              {dropped.length > 20 ? <li>and {dropped.length - 20} more</li> : null}
            </ul>
            <label className="field">
              Bucket
              <input
                value={bucket}
                placeholder={defaultBucket}
                onChange={(e) => setBucket(e.target.value.trim())}
                aria-invalid={!valid}
              />
            </label>
            {!valid ? <span className="error-text">{BUCKET_RULE_MESSAGE}</span> : null}
            <div className="row" style={{ justifyContent: 'flex-end' }}>
              <button type="button" className="btn" onClick={() => setDropped(null)}>
                Cancel
              </button>
              <button
                type="button"
                className="btn primary"
                disabled={!valid || sendable.length === 0}
                onClick={send}
              >
                Upload to {target}
              </button>
            </div>
          </div>
        </div>
      ) : null}
    </>
  );
}
