import { parseIst } from '../../src-shared/domain/ist-time';

/** `arrears.since`/`deadline` have no documented format: accept the service's IST form or ISO 8601. */
export function parseServiceDate(text: string | null): number | null {
  if (!text) return null;
  const ist = parseIst(text);
  if (ist !== null) return ist;
  const iso = Date.parse(text);
  return Number.isNaN(iso) ? null : iso;
}

export function daysUntil(epochMs: number, now = Date.now()): number {
  return Math.ceil((epochMs - now) / 86_400_000);
}
