import type { IndexedFile } from '../../../src-shared/contract';
import { formatServiceTime } from '../../../src-shared/domain/time-format';
import { formatBytes } from '../../lib/format';

const IMAGE = /^image\/(png|jpe?g|gif|webp|svg\+xml|avif|bmp)$/;

/**
 * The selected file, read from its CDN URL only now (an <img> or <embed> exists for this one file
 * alone; rows not selected load nothing). Other types show their facts and a link.
 */
export function Preview({ file, onClose }: { file: IndexedFile; onClose(): void }) {
  const kind = IMAGE.test(file.mime) ? 'image' : file.mime === 'application/pdf' ? 'pdf' : 'other';
  return (
    <aside className="card preview" aria-label="Preview" data-testid="preview">
      <div className="frame">
        {kind === 'image' ? (
          <img src={file.url} alt={`Preview of ${file.name}`} loading="lazy" decoding="async" />
        ) : kind === 'pdf' ? (
          <embed src={file.url} type="application/pdf" title={`Preview of ${file.name}`} />
        ) : (
          <span className="muted small">No preview for {file.mime || 'this type'}</span>
        )}
      </div>
      <div className="meta small">
        <strong>{file.name}</strong>
        <div className="muted">
          {/* The one format of every time in the app ("28 Nov 2026, 09:45 IST"), not the index's own text. */}
          {formatBytes(file.size)} · {file.bucket} · {formatServiceTime(file.createdAt)}
        </div>
        <div className="row" style={{ gap: '0.4rem', marginTop: '0.4rem' }}>
          <a className="btn small" href={file.url} target="_blank" rel="noopener noreferrer">
            Open
          </a>
          <button type="button" className="btn small ghost" onClick={onClose}>
            Close preview
          </button>
        </div>
      </div>
    </aside>
  );
}
