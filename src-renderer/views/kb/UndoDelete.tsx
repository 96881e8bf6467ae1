import { useEffect, useState } from 'react';
import type { KbEntryView } from '../../../src-shared/contract/kb';
import { call } from '../../api/core-ref';
import { useUi } from '../../stores/ui-store';
import { useKb } from './kb-store';

/** The newest delete still inside its undo window, if any. */
function undoable(entries: readonly KbEntryView[], now: number): KbEntryView | null {
  let best: KbEntryView | null = null;
  for (const e of entries)
    if (e.deleted && e.undoUntil !== null && e.undoUntil > now && (!best || e.undoUntil > best.undoUntil!))
      best = e;
  return best;
}

/**
 * "Deleted. Undo" for as long as the core holds the delete back (`undoUntil`, stamped by the core
 * on this machine's clock). After that the delete goes out with the next round.
 */
export function UndoDelete({ entries }: { entries: readonly KbEntryView[] }) {
  const [now, setNow] = useState(Date.now);
  const entry = undoable(entries, now);
  const until = entry?.undoUntil ?? null;
  useEffect(() => {
    if (until === null) return;
    const t = setTimeout(() => setNow(Date.now()), Math.max(0, until - Date.now()) + 20);
    return () => clearTimeout(t);
  }, [until]);
  // A new delete arrived: look again from the present.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the entries are the trigger
  useEffect(() => setNow(Date.now()), [entries]);
  if (!entry) return null;

  async function undo(e: KbEntryView) {
    const r = await call('kb.restore', { entryId: e.id });
    if (!r.ok) return useUi.getState().toast('error', r.error.message);
    useKb.getState().select(e.id);
  }

  return (
    <div className="kb-undo" role="status" aria-live="polite">
      <div className="toast">
        <span>
          Deleted “<span className="kb-undo-title">{entry.title}</span>”.
        </span>
        <button type="button" className="kb-undo-action" onClick={() => void undo(entry)}>
          Undo
        </button>
      </div>
    </div>
  );
}
