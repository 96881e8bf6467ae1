import type { FastifyInstance } from 'fastify';
import type { ServerContext } from '../../context';
import { sendAdminError } from '../../http/envelopes';
import { type BotStore, clientExists } from '../bots';
import { CreateBotBody, describeIssues, pathId, UpdateBotBody } from './schemas';

/** `POST /bots` and `PUT /bots/{id}`: a bot of a client, with its API token and signing secret shown once. */
export function registerBotRoutes(admin: FastifyInstance, ctx: ServerContext, bots: BotStore): void {
  admin.post('/bots', async (request, reply) => {
    const body = CreateBotBody.safeParse(request.body ?? {});
    if (!body.success) return sendAdminError(reply, 400, describeIssues(body.error));
    const { client_id, name, business_name, webhook_url } = body.data;
    if (!clientExists(ctx.db, client_id))
      return sendAdminError(reply, 404, `No client with id ${client_id}.`);
    const created = bots.create(
      { clientId: client_id, name, businessName: business_name, webhookUrl: webhook_url ?? null },
      ctx.clock.now(),
    );
    return reply.code(201).send({
      bot: { id: created.bot.id, name: created.bot.name, business_name: created.bot.businessName },
      token: created.token,
      signing_secret: created.signingSecret,
    });
  });

  admin.put('/bots/:id', async (request, reply) => {
    const raw = (request.params as { id: string }).id;
    const id = pathId(raw);
    if (id === null || !bots.get(id)) return sendAdminError(reply, 404, `No bot with id "${raw}".`);
    const body = UpdateBotBody.safeParse(request.body ?? {});
    if (!body.success) return sendAdminError(reply, 400, describeIssues(body.error));
    const bot = bots.setWebhookUrl(id, body.data.webhook_url)!;
    return {
      bot: { id: bot.id, name: bot.name, business_name: bot.businessName, webhook_url: bot.webhookUrl },
    };
  });
}
