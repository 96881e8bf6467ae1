import type { FastifyInstance, FastifyRequest } from 'fastify';
import { type ApiFailure, failure, sendFailure } from './failure';
import type { Hosting } from './hosting';
import type { ClientRow } from './store/clients';

const callers = new WeakMap<FastifyRequest, ClientRow>();

/** The client whose key authenticated this request (set by the hook below). */
export function callerOf(request: FastifyRequest): ClientRow {
  const client = callers.get(request);
  if (!client) throw new Error('callerOf used on a route outside the authenticated API');
  return client;
}

const BEARER = /^Bearer[ ]+([\x21-\x7e]+)[ ]*$/i;

function authenticate(hosting: Hosting, header: string | undefined): ClientRow | ApiFailure {
  if (!header) return failure('UNAUTHENTICATED', 'Send the header "Authorization: Bearer <API key>".');
  const m = BEARER.exec(header);
  if (!m) return failure('UNAUTHENTICATED', 'The Authorization header must be "Bearer <API key>".');
  const client = hosting.clients.byApiKey(m[1]!);
  if (!client) return failure('UNAUTHENTICATED', 'The API key is unknown or was revoked; mint a new one.');
  if (client.status === 'CLOSED')
    return failure(
      'CLIENT-CLOSED',
      'This account was closed for unpaid storage rent; its files were deleted.',
    );
  return client;
}

/**
 * Checks run before any body is read, in this order: rate limit (per address), then the key, then whether
 * the account is closed.
 */
export function installApiGuards(api: FastifyInstance, hosting: Hosting): void {
  const route = (request: FastifyRequest) => request.routeOptions.url?.replace(/^\/api\/assets\/v1/, '');
  api.addHook('onResponse', async (request) => {
    hosting.requests.answered(request.method, route(request), request.raw.socket);
  });
  api.addHook('onRequest', async (request, reply) => {
    hosting.requests.count(request.method, route(request));
    // The test aid first (PUT /__admin/v1/faults rate_limited_seconds): a service that says slow down.
    const held = hosting.faults.limitedFor(hosting.ctx.clock.now());
    if (held !== null) {
      hosting.requests.refused();
      reply.header('retry-after', String(held));
      return sendFailure(
        request,
        reply,
        failure('RATE-LIMITED', `This service is answering 429 for now; retry in ${held} s.`),
      );
    }
    const decision = hosting.rateLimit.take(request.ip);
    if (!decision.ok) {
      hosting.requests.refused();
      const wait = decision.retryAfterS;
      if (wait !== null) reply.header('retry-after', String(wait));
      return sendFailure(
        request,
        reply,
        failure(
          'RATE-LIMITED',
          `More than ${hosting.ctx.options.ratePerMinute} requests in a minute from this address; ${wait !== null ? `retry in ${wait} s` : 'retry later'}.`,
        ),
      );
    }
    const result = authenticate(hosting, request.headers.authorization);
    if ('code' in result) return sendFailure(request, reply, result);
    callers.set(request, result);
  });
}
