import type { InputHTMLAttributes, ReactNode } from 'react';

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
  return message ? (
    <Tag className="error-text" role="alert">
      {message}
    </Tag>
  ) : null;
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
