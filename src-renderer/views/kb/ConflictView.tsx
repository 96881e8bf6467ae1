import { useEffect, useRef, useState } from 'react';
import type { KbEntryView } from '../../../src-shared/contract/kb';
import { charCount } from '../../../src-shared/domain/kb-entry';
import { KB_DESCRIPTION_MAX, KB_TITLE_MAX } from '../../../src-shared/domain/limits';
import { call } from '../../api/core-ref';
import { CountedLabel, FormError, TextField } from '../../components/Field';
import { parseServiceDate } from '../../lib/dates';
import { rescueFocus } from '../../lib/focus-rescue';
import { formatTime } from '../../lib/format';
import { fieldProblems } from './field-problems';
import { useKb } from './kb-store';

function Side({
  label,
  title,
  description,
  gone,
}: {
  label: string;
  title: string;
  description: string;
  gone?: boolean;
}) {
  return (
    <section className="card stack" aria-label={label} style={{ flex: '1 1 16rem', minWidth: 0 }}>
      <h2 style={{ margin: 0 }}>{label}</h2>
      {gone ? (
        <p className="muted">Deleted.</p>
      ) : (
        <>
          <strong style={{ overflowWrap: 'anywhere' }}>{title}</strong>
          <p style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>{description}</p>
        </>
      )}
    </section>
  );
}

/** Both versions side by side; nothing is overwritten until the editor picks or writes the result. */
export function ConflictView({ entry }: { entry: KbEntryView }) {
  const theirs = entry.theirs!;
  const [merging, setMerging] = useState(false);
  const startTitle = entry.title;
  const startDescription = theirs.deleted
    ? entry.description
    : `${theirs.description}\n\n${entry.description}`;
  const [title, setTitle] = useState(startTitle);
  const [description, setDescription] = useState(startDescription);
  const [error, setError] = useState<string | null>(null);
  // The service's bare IST stamp, in the app's one labelled form ("25 Nov 2026, 21:06 IST").
  const changedAt = parseServiceDate(theirs.updatedAt);
  const mergeForm = useRef<HTMLFormElement>(null);
  const editMerge = useRef<HTMLButtonElement>(null);
  // "Edit a merge" is disabled while the merge is open: the keyboard goes to the merge's title, and
  // back to the button when it closes (issue 23).
  useEffect(() => {
    if (merging) mergeForm.current?.querySelector<HTMLInputElement>('input[name="merge-title"]')?.focus();
    else rescueFocus(editMerge.current);
  }, [merging]);
  const problems = fieldProblems({ title, description });
  // Cancel leaves both versions as they are and forgets the draft of the merge.
  const cancelMerge = () => {
    setMerging(false);
    setTitle(startTitle);
    setDescription(startDescription);
    setError(null);
  };

  async function resolve(
    request: { keep: 'mine' | 'theirs' } | { merge: { title: string; description: string } },
  ) {
    const r = await call('kb.resolve', { entryId: entry.id, ...request });
    if (!r.ok) return setError(r.error.message);
    useKb.setState({ selectedId: r.value.entry?.id ?? null });
  }

  return (
    <section className="stack" aria-label="Conflict">
      <div className="banner danger" role="alert">
        <div className="body">
          <strong>Changed in two places.</strong>{' '}
          {theirs.deleted
            ? 'This entry was deleted on the server while you edited it here.'
            : entry.deleted
              ? 'This entry changed on the server after you deleted it here.'
              : 'This entry changed on the server since the version your edit started from.'}{' '}
          Choose which to keep, or write the result.
        </div>
      </div>
      <div className="row" style={{ alignItems: 'stretch' }}>
        <Side label="Yours" title={entry.title} description={entry.description} gone={entry.deleted} />
        <Side
          label={`On the server${changedAt === null ? '' : ` (changed ${formatTime(changedAt)})`}`}
          title={theirs.title}
          description={theirs.description}
          gone={theirs.deleted}
        />
      </div>
      <div className="row">
        <button type="button" className="btn primary" onClick={() => void resolve({ keep: 'mine' })}>
          Keep mine
        </button>
        <button type="button" className="btn" onClick={() => void resolve({ keep: 'theirs' })}>
          Keep theirs
        </button>
        <button
          ref={editMerge}
          type="button"
          className="btn"
          onClick={() => setMerging(true)}
          disabled={merging}
        >
          Edit a merge
        </button>
      </div>
      {merging ? (
        <form
          ref={mergeForm}
          className="card stack"
          aria-label="Merge"
          onSubmit={(e) => {
            e.preventDefault();
            void resolve({ merge: { title, description } });
          }}
        >
          <TextField
            label={<CountedLabel text="Title" n={charCount(title)} max={KB_TITLE_MAX} />}
            name="merge-title"
            value={title}
            onChange={setTitle}
            aria-invalid={!!problems.title}
          />
          {problems.title ? <span className="error-text">{problems.title}</span> : null}
          <label className="field">
            <CountedLabel text="Description" n={charCount(description)} max={KB_DESCRIPTION_MAX} />
            <textarea
              name="merge-description"
              rows={8}
              value={description}
              onChange={(e) => setDescription(e.target.value)}
              aria-invalid={!!problems.description}
            />
          </label>
          {problems.description ? <span className="error-text">{problems.description}</span> : null}
          <div className="row">
            <button
              type="submit"
              className="btn primary"
              disabled={!!(problems.title || problems.description)}
            >
              Save the merge
            </button>
            <button type="button" className="btn ghost" onClick={cancelMerge}>
              Cancel
            </button>
          </div>
        </form>
      ) : null}
      <FormError message={error} />
    </section>
  );
}
