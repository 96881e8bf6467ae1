import { useEffect, useId, useRef } from 'react';

/** A native <dialog>: focus is trapped and Escape cancels, for free. */
export function ConfirmDialog(props: {
  open: boolean;
  title: string;
  children: React.ReactNode;
  confirmLabel: string;
  danger?: boolean;
  /** The confirm button waits for a choice the dialog asks for. */
  confirmDisabled?: boolean;
  onConfirm(): void;
  onCancel(): void;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  // One id per dialog: a view with two dialogs must not name both after the first one's title.
  const titleId = useId();
  useEffect(() => {
    const d = ref.current;
    if (!d) return;
    if (props.open && !d.open) d.showModal();
    if (!props.open && d.open) d.close();
  }, [props.open]);
  return (
    <dialog ref={ref} className="modal" onCancel={props.onCancel} aria-labelledby={titleId}>
      <h2 id={titleId}>{props.title}</h2>
      <div className="muted" style={{ marginBottom: '1.25rem' }}>
        {props.children}
      </div>
      <div className="row" style={{ justifyContent: 'flex-end' }}>
        <button type="button" className="btn" onClick={props.onCancel}>
          Cancel
        </button>
        <button
          type="button"
          className={`btn ${props.danger ? 'danger solid' : 'primary'}`}
          disabled={props.confirmDisabled}
          onClick={props.onConfirm}
        >
          {props.confirmLabel}
        </button>
      </div>
    </dialog>
  );
}
