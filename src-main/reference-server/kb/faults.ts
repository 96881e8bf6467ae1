import type { FastifyInstance } from 'fastify';
import { sendKbError } from '../http/envelopes';

/**
 * Test aids for the knowledge-entry API (issue 23), set through the admin surface: the API taken
 * offline (every entry request's connection is dropped before any reply, as a network that cannot
 * reach the service) and back, and the API answering 429 with Retry-After for a while, whatever the
 * rate. In memory: a restart clears them. Never part of the documented API.
 */
export interface KbFaults {
  offline: boolean;
  /** Server-clock ms until which every entry request answers 429; null: not limited. */
  rateLimitedUntil: number | null;
}

export function kbFaults(): KbFaults {
  return { offline: false, rateLimitedUntil: null };
}

/** The hook of the entry routes' scope, run before the bot token is read. */
export function applyKbFaults(scope: FastifyInstance, faults: KbFaults, now: () => number): void {
  scope.addHook('onRequest', async (request, reply) => {
    if (faults.offline) {
      reply.hijack();
      request.raw.socket.destroy();
      return reply;
    }
    const until = faults.rateLimitedUntil;
    if (until !== null && until > now()) {
      const wait = Math.max(1, Math.ceil((until - now()) / 1000));
      reply.header('retry-after', String(wait));
      return sendKbError(reply, 429, `Rate limit exceeded; retry in ${wait} s.`);
    }
    return undefined;
  });
}
