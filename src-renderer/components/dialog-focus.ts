/**
 * Keeps Tab inside the open modal dialog (issue 23). A native modal <dialog> makes the page behind it
 * inert, but Tab past its last control leaves the page (to the browser's own controls) instead of
 * wrapping; this wraps it, for every dialog of the app, from one listener. Escape and giving focus back
 * on close stay the browser's.
 */
const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

export function installDialogFocusTrap(doc: Document = document): () => void {
  const onKey = (e: KeyboardEvent) => {
    if (e.key !== 'Tab') return;
    const dialogs = [...doc.querySelectorAll<HTMLDialogElement>('dialog[open]')].filter((d) =>
      d.matches(':modal'),
    );
    const dialog = dialogs.at(-1);
    if (!dialog) return;
    const stops = [...dialog.querySelectorAll<HTMLElement>(FOCUSABLE)].filter(
      (el) => el.offsetParent !== null,
    );
    if (stops.length === 0) return;
    const first = stops[0]!;
    const last = stops[stops.length - 1]!;
    const active = doc.activeElement;
    if (e.shiftKey && (active === first || !dialog.contains(active))) {
      e.preventDefault();
      last.focus();
    } else if (!e.shiftKey && (active === last || !dialog.contains(active))) {
      e.preventDefault();
      first.focus();
    }
  };
  doc.addEventListener('keydown', onKey, true);
  return () => doc.removeEventListener('keydown', onKey, true);
}
