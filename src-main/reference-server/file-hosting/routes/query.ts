import { type ApiFailure, failure } from '../failure';

const INTEGER = /^[+-]?\d+$/;

/**
 * Reads an integer query parameter. Absent: the default. Not a whole number (including empty or sent twice):
 * VALIDATION naming the parameter. Out of range: clamped or refused, as the caller says.
 */
export function intParam(
  query: Record<string, unknown>,
  name: string,
  rule: { default: number; min: number; max: number; outOfRange: 'clamp' | 'refuse' },
): { value: number } | ApiFailure {
  const raw = query[name];
  if (raw === undefined) return { value: rule.default };
  if (typeof raw !== 'string' || !INTEGER.test(raw))
    return failure('VALIDATION', `${name} must be a whole number, got ${JSON.stringify(raw)}.`);
  const n = Number(raw);
  if (n >= rule.min && n <= rule.max) return { value: n };
  if (rule.outOfRange === 'clamp') return { value: Math.min(rule.max, Math.max(rule.min, n)) };
  return failure('VALIDATION', `${name} must be between ${rule.min} and ${rule.max}, got ${raw}.`);
}

/** A file id from the path: digits only (VALIDATION otherwise); an id that cannot exist is simply not found. */
export function fileIdParam(raw: string): { value: number; text: string } | ApiFailure {
  if (!/^\d+$/.test(raw))
    return failure('VALIDATION', `The file id must be a positive whole number, got "${raw}".`);
  const n = Number(raw);
  // Too large to be an id: -1 matches no row; `text` keeps what was asked for, for the message.
  return { value: Number.isSafeInteger(n) ? n : -1, text: raw };
}
