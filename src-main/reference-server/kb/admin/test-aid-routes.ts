import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { KB_DESCRIPTION_MAX, KB_TITLE_MAX } from '../../../../src-shared/domain/limits';
import type { ServerContext } from '../../context';
import { sendAdminError } from '../../http/envelopes';
import type { KbRuntime } from '../runtime';
import { describeIssues, pathId } from './schemas';

const FaultsBody = z
  .object({
    offline: z.boolean().optional(),
    /** 0 ends it; up to an hour. */
    rate_limited_seconds: z.number().int().min(0).max(3600).optional(),
  })
  .strict();

const EntryEdit = z
  .object({
    title: z.string().min(1).max(KB_TITLE_MAX).optional(),
    description: z.string().min(1).max(KB_DESCRIPTION_MAX).optional(),
  })
  .strict();

/**
 * Test aids (docs/reference-server-kb.md, "Test aids"): the entry API's faults, and an entry changed
 * on the service's side as another editor would, so a client's next edit meets a conflict.
 */
export function registerKbTestAidRoutes(admin: FastifyInstance, ctx: ServerContext, rt: KbRuntime): void {
  const state = () => ({
    offline: rt.faults.offline,
    rate_limited_until:
      rt.faults.rateLimitedUntil !== null && rt.faults.rateLimitedUntil > ctx.clock.now()
        ? new Date(rt.faults.rateLimitedUntil).toISOString()
        : null,
  });
  admin.put('/kb/faults', async (request, reply) => {
    const body = FaultsBody.safeParse(request.body ?? {});
    if (!body.success) return sendAdminError(reply, 400, describeIssues(body.error));
    if (body.data.offline !== undefined) rt.faults.offline = body.data.offline;
    if (body.data.rate_limited_seconds !== undefined)
      rt.faults.rateLimitedUntil =
        body.data.rate_limited_seconds === 0 ? null : ctx.clock.now() + body.data.rate_limited_seconds * 1000;
    return state();
  });

  // PUT (and PATCH): the fields given, as another editor's save.
  const editEntry = async (request: FastifyRequest, reply: FastifyReply) => {
    const params = request.params as { bot: string; id: string };
    const botId = pathId(params.bot);
    const id = pathId(params.id);
    if (botId === null || !rt.bots.get(botId))
      return sendAdminError(reply, 404, `No bot with id "${params.bot}".`);
    if (id === null || !rt.entries.get(botId, id))
      return sendAdminError(reply, 404, `No entry with id "${params.id}" belongs to bot ${botId}.`);
    const body = EntryEdit.safeParse(request.body ?? {});
    if (!body.success) return sendAdminError(reply, 400, describeIssues(body.error));
    const current = rt.entries.get(botId, id)!;
    // Nothing given: the title gains a mark, so the entry differs from every client's copy.
    const fields =
      body.data.title === undefined && body.data.description === undefined
        ? { title: `${current.title.slice(0, KB_TITLE_MAX - 26)} (changed on the service)` }
        : body.data;
    return { entry: rt.entries.update(botId, id, fields, ctx.clock.now()) };
  };
  admin.put('/bots/:bot/entries/:id', editEntry);
  admin.patch('/bots/:bot/entries/:id', editEntry);
}
