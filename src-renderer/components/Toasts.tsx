import { withoutCodes } from '../../src-shared/domain/words';
import { useUi } from '../stores/ui-store';

export function Toasts() {
  const toasts = useUi((s) => s.toasts);
  const dismiss = useUi((s) => s.dismiss);
  return (
    <div className="toasts" aria-live="polite">
      {toasts.map((t) => (
        <div key={t.id} className={`toast ${t.tone}`} role={t.tone === 'error' ? 'alert' : 'status'}>
          <Words text={t.text} />
          <button type="button" onClick={() => dismiss(t.id)} aria-label="Dismiss">
            ✕
          </button>
        </div>
      ))}
    </div>
  );
}

/** A toast in words; a code it carries ("(URL-IMPORT-FAILED)") is in its tooltip (issue 34). */
function Words({ text }: { text: string }) {
  const m = withoutCodes(text);
  return <span title={m.codes.length ? m.codes.join(', ') : undefined}>{m.text}</span>;
}
