import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/**
 * Who may talk to the headless shell: a page served by this very shell (Origin and Host are
 * exactly http://127.0.0.1:<port>, which also stops DNS-rebinding pages), holding the random token
 * printed at start. Static files are public; the contract is not.
 */
export const newToken = (): string => randomBytes(24).toString('base64url');

export function sameToken(expected: string, given: string | null | undefined): boolean {
  if (!given) return false;
  const a = Buffer.from(expected);
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
}

export function checkRequest(
  req: IncomingMessage,
  origin: string,
  token: string,
  givenToken: string | null,
): { ok: true } | { ok: false; status: number; reason: string } {
  if (req.headers.host !== new URL(origin).host)
    return { ok: false, status: 421, reason: 'wrong Host header' };
  if (req.headers.origin !== origin) return { ok: false, status: 403, reason: 'wrong or missing Origin' };
  if (!sameToken(token, givenToken)) return { ok: false, status: 401, reason: 'missing or wrong token' };
  return { ok: true };
}
