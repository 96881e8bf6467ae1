import { useEffect, useRef, useState } from 'react';
import type { KbEntryView } from '../../../src-shared/contract/kb';
import { charCount } from '../../../src-shared/domain/kb-entry';
import { KB_DESCRIPTION_MAX, KB_TITLE_MAX } from '../../../src-shared/domain/limits';
import { call } from '../../api/core-ref';
import { CountedLabel, FormError, TextField } from '../../components/Field';
import { rescueFocus } from '../../lib/focus-rescue';
import { fieldProblems } from './field-problems';
import { useKb } from './kb-store';
import { EntryStateBadge } from './SyncBadge';

/**
 * Title and description with live counts and each field's own error; saving stores locally at
 * once, the sync sends it later. A delete is held for a few seconds so it can be undone.
 */
export function EntryEditor({ botId, entry }: { botId: number; entry: KbEntryView | null }) {
  const [title, setTitle] = useState(entry?.title ?? '');
  const [description, setDescription] = useState(entry?.description ?? '');
  const [error, setError] = useState<string | null>(null);
  const form = useRef<HTMLFormElement>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  const saved = useRef(false);
  // A reply that comes after this editor was replaced (a new draft, another entry picked) must not
  // take the view back to what it saved: the person has moved on.
  const onScreen = useRef(true);
  useEffect(() => {
    onScreen.current = true;
    return () => {
      onScreen.current = false;
    };
  }, []);
  // By keyboard (issue 23): "New" leads straight to the title; an editor that replaces the control
  // that had focus (the draft's form once added, a conflict once resolved) takes it on its heading.
  // biome-ignore lint/correctness/useExhaustiveDependencies: on mount only
  useEffect(() => {
    if (!entry) form.current?.querySelector<HTMLInputElement>('input[name="title"]')?.focus();
    else rescueFocus(heading.current);
  }, []);
  // Another save (or the sync) changed the entry: show the stored text.
  // biome-ignore lint/correctness/useExhaustiveDependencies: a different entry with the same text must reset the form too
  useEffect(() => {
    setTitle(entry?.title ?? '');
    setDescription(entry?.description ?? '');
    setError(null);
    // Saved: "Save" is disabled now, and focus with it; the keyboard goes on from the heading.
    if (saved.current) rescueFocus(heading.current);
    saved.current = false;
  }, [entry?.id, entry?.title, entry?.description]);

  const problems = fieldProblems({ title, description });
  const invalid = !!(problems.title || problems.description);
  const dirty = !entry || title !== entry.title || description !== entry.description;
  const shown = dirty ? problems : { title: null, description: null };

  async function save() {
    const r = entry
      ? await call('kb.edit', { entryId: entry.id, title, description })
      : await call('kb.create', { botId, title, description });
    if (!onScreen.current) return;
    if (!r.ok) return setError(r.error.message);
    // The list may already show the saved text (its change event came before this reply): "Save" is
    // disabled and focus lost now, and the effect below will not run again; take focus here. Else the
    // effect takes it when the stored text arrives.
    saved.current = !rescueFocus(heading.current);
    setError(null);
    useKb.setState({ selectedId: r.value.id, draft: false });
  }

  async function remove() {
    if (!entry) return;
    const r = await call('kb.delete', { entryId: entry.id });
    if (!r.ok) return setError(r.error.message);
    // The view offers Undo for the window (UndoDelete); the entry stays listed as "Deleting".
    useKb.setState({ selectedId: null });
  }

  async function restore() {
    if (!entry) return;
    const r = await call('kb.restore', { entryId: entry.id });
    if (!r.ok) return setError(r.error.message);
    setError(null);
  }

  return (
    <form
      ref={form}
      className="card stack"
      aria-label={entry ? 'Edit entry' : 'New entry'}
      onSubmit={(e) => {
        e.preventDefault();
        void save();
      }}
    >
      <div className="row">
        <h2 ref={heading} tabIndex={-1} style={{ margin: 0 }}>
          {entry ? 'Edit entry' : 'New entry'}
        </h2>
        <span className="spacer" />
        {entry ? <EntryStateBadge state={entry.state} deleted={entry.deleted} /> : null}
      </div>
      {entry?.state === 'error' && entry.error ? (
        <div className="banner danger" role="alert">
          <div className="body">
            <strong>The server refused this entry.</strong> {entry.error.message}
          </div>
          <button
            type="button"
            className="btn small"
            onClick={() => void call('kb.retry', { entryId: entry.id })}
          >
            Retry as is
          </button>
        </div>
      ) : null}
      <TextField
        label={<CountedLabel text="Title" n={charCount(title)} max={KB_TITLE_MAX} />}
        name="title"
        value={title}
        onChange={setTitle}
        aria-invalid={!!shown.title}
        aria-describedby={shown.title ? 'entry-title-error' : undefined}
      />
      {shown.title ? (
        <span id="entry-title-error" className="error-text" data-field-error="title">
          {shown.title}
        </span>
      ) : null}
      <label className="field">
        <CountedLabel text="Description" n={charCount(description)} max={KB_DESCRIPTION_MAX} />
        <textarea
          name="description"
          rows={10}
          value={description}
          onChange={(e) => setDescription(e.target.value)}
          aria-invalid={!!shown.description}
          aria-describedby={shown.description ? 'entry-description-error' : undefined}
        />
      </label>
      {shown.description ? (
        <span id="entry-description-error" className="error-text" data-field-error="description">
          {shown.description}
        </span>
      ) : null}
      <FormError message={error} />
      <div className="row">
        <button type="submit" className="btn primary" disabled={invalid || !dirty || !!entry?.deleted}>
          {entry ? 'Save' : 'Add entry'}
        </button>
        {entry && !entry.deleted ? (
          <button type="button" className="btn danger" onClick={() => void remove()}>
            Delete
          </button>
        ) : null}
        {entry?.deleted && entry.state === 'pending' ? (
          <button type="button" className="btn" onClick={() => void restore()}>
            Restore
          </button>
        ) : null}
        <span className="spacer" />
        <span className="small muted">Saved here at once; sent to the bot when online.</span>
      </div>
    </form>
  );
}
