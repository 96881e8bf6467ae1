import type { IndexedFile } from '../../../src-shared/contract';
import { formatServiceTime } from '../../../src-shared/domain/time-format';
import { capitalised, fileKindText } from '../../../src-shared/domain/words';
import { formatBytes } from '../../lib/format';

const IMAGE = /^image\/(png|jpe?g|gif|webp|svg\+xml|avif|bmp)$/;
/** Shown as text in a sandboxed frame: the browser draws these itself. */
const TEXT = /^(text\/plain|application\/json)$/;
/** A text file larger than this is not read for a preview: the frame would load all of it. */
const TEXT_PREVIEW_MAX = 1024 * 1024;

type Kind = 'image' | 'pdf' | 'text' | 'video' | 'audio' | 'text-too-large' | 'other';

/** Whether this browser plays the type: a video or a sound is previewed only then. */
function plays(tag: 'video' | 'audio', mime: string): boolean {
  return document.createElement(tag).canPlayType(mime) !== '';
}

function kindOf(file: IndexedFile): Kind {
  const mime = file.mime.split(';')[0]!.trim().toLowerCase();
  if (IMAGE.test(mime)) return 'image';
  if (mime === 'application/pdf') return 'pdf';
  if (TEXT.test(mime)) return file.size <= TEXT_PREVIEW_MAX ? 'text' : 'text-too-large';
  if (mime.startsWith('video/') && plays('video', mime)) return 'video';
  if (mime.startsWith('audio/') && plays('audio', mime)) return 'audio';
  return 'other';
}

/**
 * The selected file, read from its CDN URL only now (an <img>, <embed>, <video> or frame exists for this
 * one file alone; rows not selected load nothing). A text or JSON file is shown in a frame sandboxed to
 * nothing (no scripts, no forms, an origin of its own). What the browser cannot show is said in words:
 * what kind of file it is, and that Open shows it.
 */
export function Preview({ file, onClose }: { file: IndexedFile; onClose(): void }) {
  const kind = kindOf(file);
  const title = `Preview of ${file.name}`;
  return (
    <aside className="card preview" aria-label="Preview" data-testid="preview">
      <div className="frame" data-kind={kind}>
        {kind === 'image' ? (
          <img src={file.url} alt={title} loading="lazy" decoding="async" />
        ) : kind === 'pdf' ? (
          <embed src={file.url} type="application/pdf" title={title} />
        ) : kind === 'text' ? (
          <iframe src={file.url} title={title} sandbox="" referrerPolicy="no-referrer" />
        ) : kind === 'video' ? (
          // biome-ignore lint/a11y/useMediaCaption: a person's own video, which has no captions to give
          <video src={file.url} title={title} controls preload="metadata" />
        ) : kind === 'audio' ? (
          // biome-ignore lint/a11y/useMediaCaption: a person's own recording, which has no captions to give
          <audio src={file.url} title={title} controls preload="metadata" />
        ) : (
          <span className="muted small" data-testid="no-preview">
            {kind === 'text-too-large'
              ? `${capitalised(fileKindText(file.mime, file.name))} of ${formatBytes(file.size)}: too large to preview here. Open shows it.`
              : `${capitalised(fileKindText(file.mime, file.name))}: no preview here. Open shows it.`}
          </span>
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
