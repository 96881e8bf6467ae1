import { createHmac, timingSafeEqual } from 'node:crypto';

const HEADER_FORMAT = /^sha256=([0-9a-fA-F]{64})$/;

/**
 * Checks `X-Service-Signature: sha256=<hex>` against HMAC-SHA256 of the body bytes exactly as they
 * arrived. The comparison is timing-safe: both sides are 32-byte digests, so their lengths match
 * and nothing about the expected value leaks through how long a mismatch takes to find.
 */
export function signatureMatches(rawBody: Buffer, header: string | undefined, secret: string): boolean {
  if (!header || secret.length === 0) return false;
  const m = HEADER_FORMAT.exec(header.trim());
  if (!m) return false;
  const given = Buffer.from(m[1]!, 'hex');
  const expected = createHmac('sha256', secret).update(rawBody).digest();
  return timingSafeEqual(given, expected);
}

/** Finds which of the known signing secrets signed this body; null when none did. */
export function whichSecretSigned<T extends { secret: string }>(
  rawBody: Buffer,
  header: string | undefined,
  candidates: readonly T[],
): T | null {
  let found: T | null = null;
  // Every candidate is checked, so the time taken does not say which one matched.
  for (const c of candidates) if (signatureMatches(rawBody, header, c.secret) && !found) found = c;
  return found;
}
