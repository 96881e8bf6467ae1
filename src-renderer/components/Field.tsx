import { type InputHTMLAttributes, type ReactNode, type Ref, useId } from 'react';
import { withoutCodes } from '../../src-shared/domain/words';
import type { AppError } from '../../src-shared/errors';
import { usePendingCheck } from './use-pending-check';

type InputProps = Omit<InputHTMLAttributes<HTMLInputElement>, 'value' | 'onChange'>;

/**
 * A text input inside its label (so the label names it and a click on it focuses it). `flex` sizes the
 * field inside a form row.
 */
export function TextField({
  label,
  value,
  onChange,
  flex,
  ...input
}: InputProps & { label: ReactNode; value: string; onChange(value: string): void; flex?: string }) {
  return (
    <label className="field" style={flex ? { flex } : undefined}>
      {label}
      <input {...input} value={value} onChange={(e) => onChange(e.target.value)} />
    </label>
  );
}

/** A form's error, announced as it appears; nothing when there is none. */
export function FormError({
  message,
  as: Tag = 'span',
}: {
  message: string | null | undefined;
  as?: 'span' | 'p';
}) {
  if (!message) return null;
  // The sentence on screen, the code ("(FETCH-FAILED)") in the tooltip (issue 34).
  const m = withoutCodes(message);
  return (
    <Tag className="error-text" role="alert" title={m.codes.length ? m.codes.join(', ') : undefined}>
      {m.text}
    </Tag>
  );
}

/** "n / max" characters, red past the limit. */
function CharCount({ n, max }: { n: number; max: number }) {
  return (
    <span className={`small num ${n > max ? 'error-text' : 'muted'}`} aria-live="polite">
      {n} / {max}
    </span>
  );
}

/** A field's label with its live character count at the far end. */
export function CountedLabel({ text, n, max }: { text: string; n: number; max: number }) {
  return (
    <span className="row">
      {text} <span className="spacer" /> <CharCount n={n} max={max} />
    </span>
  );
}

/**
 * A refused field's words, for the person: the contract's VALIDATION message starts with the field's
 * key ("bwlimit: ..."), which is for programs; beside the field only the sentence is shown.
 */
export function fieldMessage(e: AppError): string {
  return e.field && e.message.startsWith(`${e.field}: `) ? e.message.slice(e.field.length + 2) : e.message;
}

/** The message under a field, tied to its input by `aria-describedby` (the id given). */
export function FieldError({ id, message }: { id: string; message: string | null | undefined }) {
  return message ? (
    <span id={id} className="error-text small" role="alert">
      {message}
    </span>
  ) : null;
}

/**
 * A labelled input whose refusal is said beside it: the label names it, the error is announced and
 * described to a screen reader, the input is marked invalid.
 */
export function LabelledInput({
  label,
  error,
  hint,
  ...input
}: InputHTMLAttributes<HTMLInputElement> & {
  label: ReactNode;
  error?: string | null;
  hint?: ReactNode;
  ref?: Ref<HTMLInputElement>;
}) {
  const id = useId();
  const described = [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ');
  // The hint and the error are outside the label, so the field's name stays its label alone.
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {hint ? (
        <span id={`${id}-hint`} className="small muted field-hint">
          {hint}
        </span>
      ) : null}
      <input
        {...input}
        id={id}
        aria-invalid={error ? true : undefined}
        aria-describedby={described || undefined}
      />
      <FieldError id={`${id}-error`} message={error} />
    </div>
  );
}

/** A checkbox beside its label, the label's lines wrapping beside the box (never under it). */
export function CheckField({
  checked,
  onChange,
  children,
  hint,
}: {
  checked: boolean;
  /** May return the save's promise: the box then shows the click at once (see usePendingCheck). */
  onChange(checked: boolean): unknown;
  children: ReactNode;
  hint?: ReactNode;
}) {
  const id = useId();
  const [shown, change] = usePendingCheck(checked, onChange);
  return (
    <div className="check-field">
      <input
        id={id}
        type="checkbox"
        checked={shown}
        onChange={(e) => change(e.target.checked)}
        aria-describedby={hint ? `${id}-hint` : undefined}
      />
      <div>
        <label htmlFor={id}>{children}</label>
        {hint ? (
          <span id={`${id}-hint`} className="small muted field-hint">
            {hint}
          </span>
        ) : null}
      </div>
    </div>
  );
}
