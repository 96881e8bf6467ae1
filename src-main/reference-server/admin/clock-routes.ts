import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { formatIstMinute } from '../../../src-shared/domain/ist-time';
import type { ServerContext } from '../context';
import { sendAdminError } from '../http/envelopes';

const AdvanceBody = z.object({ seconds: z.number().int().positive() }).strict();

function clockReply(ctx: ServerContext) {
  const now = ctx.clock.now();
  return { now: new Date(now).toISOString(), ist: formatIstMinute(now) };
}

export function registerClockRoutes(admin: FastifyInstance, ctx: ServerContext): void {
  admin.get('/clock', async () => clockReply(ctx));
  admin.post('/clock/advance', async (request, reply) => {
    const body = AdvanceBody.safeParse(request.body);
    if (!body.success) return sendAdminError(reply, 400, 'Body must be {"seconds": <positive integer>}.');
    await ctx.scheduler.advance(body.data.seconds);
    return clockReply(ctx);
  });
}
