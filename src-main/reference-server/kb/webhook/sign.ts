import { createHmac } from 'node:crypto';

/** `X-Service-Signature`: `sha256=` + HMAC-SHA256 of the exact body bytes, keyed with the bot's signing secret. */
export function signBody(secret: string, body: Uint8Array): string {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
}
