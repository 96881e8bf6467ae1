import type { FastifyInstance } from 'fastify';
import type { ServerContext } from '../../context';
import { sendAdminError } from '../../http/envelopes';
import type { BotStore } from '../bots';
import type { DeliveryStore } from '../webhook/deliveries-store';
import { raiseLeadEvent } from '../webhook/raise';
import type { WebhookDispatcher } from '../webhook/retry-jobs';
import { describeIssues, pathId, RaiseEventBody } from './schemas';

/** `POST /bots/{id}/events` (202, first attempt under way) and `GET /deliveries?bot_id=N`. */
export function registerDeliveryRoutes(
  admin: FastifyInstance,
  ctx: ServerContext,
  deps: { bots: BotStore; deliveries: DeliveryStore; dispatcher: WebhookDispatcher },
): void {
  admin.post('/bots/:id/events', async (request, reply) => {
    const raw = (request.params as { id: string }).id;
    const id = pathId(raw);
    const bot = id === null ? null : deps.bots.get(id);
    if (!bot) return sendAdminError(reply, 404, `No bot with id "${raw}".`);
    const body = RaiseEventBody.safeParse(request.body ?? {});
    if (!body.success) return sendAdminError(reply, 400, describeIssues(body.error));
    const raised = raiseLeadEvent(ctx, deps, bot, {
      event: body.data.event,
      lead: body.data.lead,
      visitorRef: body.data.conversation?.visitor_ref,
    });
    return reply.code(202).send(raised);
  });

  admin.get('/deliveries', async (request, reply) => {
    const raw = (request.query as { bot_id?: string | string[] }).bot_id;
    if (raw === undefined) return { deliveries: deps.deliveries.view(null) };
    const id = typeof raw === 'string' ? pathId(raw) : null;
    if (id === null)
      return sendAdminError(reply, 400, `bot_id must be a positive integer, got "${String(raw)}".`);
    if (!deps.bots.get(id)) return sendAdminError(reply, 404, `No bot with id ${id}.`);
    return { deliveries: deps.deliveries.view(id) };
  });
}
