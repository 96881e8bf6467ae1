import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { sendAdminError } from '../http/envelopes';

/** Every admin call carries `X-Admin-Token`; a missing or wrong token answers 401. */
export function requireAdminToken(admin: FastifyInstance, token: string): void {
  const expected = Buffer.from(token);
  admin.addHook('onRequest', async (request, reply) => {
    const got = request.headers['x-admin-token'];
    const given = Buffer.from(typeof got === 'string' ? got : '');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
      return sendAdminError(reply, 401, 'Missing or wrong X-Admin-Token header.');
    }
  });
}
