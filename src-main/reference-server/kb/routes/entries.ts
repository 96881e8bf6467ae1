import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { KB_MAX_ENTRIES } from '../../../../src-shared/domain/limits';
import type { ServerContext } from '../../context';
import { sendKbError } from '../../http/envelopes';
import { requireBotToken } from '../auth';
import type { BotStore } from '../bots';
import type { EntryStore } from '../entries-store';
import { applyKbFaults, type KbFaults } from '../faults';
import type { MinuteLimiter } from '../rate-limit';
import { checkCreate, checkUpdate } from '../validation';

/** `/api/mebot/kb/entries` (knowledge-entry-api-and-webhook.md, section 4). */
export async function registerEntryRoutes(
  app: FastifyInstance,
  ctx: ServerContext,
  deps: { bots: BotStore; entries: EntryStore; limiter: MinuteLimiter; faults?: KbFaults },
): Promise<void> {
  const { entries } = deps;
  await app.register(
    async (scope) => {
      if (deps.faults) applyKbFaults(scope, deps.faults, () => ctx.clock.now());
      const auth = requireBotToken(scope, deps.bots, deps.limiter);

      scope.get('/', async (request) => ({ ok: true, entries: entries.list(auth.botOf(request).id) }));

      scope.post('/', async (request, reply) => {
        const bot = auth.botOf(request);
        const checked = checkCreate(request.body);
        if (!checked.ok) return sendKbError(reply, 422, checked.message);
        const created = entries.create(bot.id, checked.value, ctx.clock.now());
        if (!created.ok)
          return sendKbError(
            reply,
            422,
            `A bot holds at most ${KB_MAX_ENTRIES} entries; delete one before adding another.`,
          );
        return reply.code(201).send({ ok: true, entry: created.entry });
      });

      // The document names no method for an update: PUT and PATCH both take the fields to change.
      const update = async (request: FastifyRequest, reply: FastifyReply) => {
        const bot = auth.botOf(request);
        const id = entryId(request);
        if (id === null || !entries.get(bot.id, id)) return notFound(reply, request);
        const checked = checkUpdate(request.body);
        if (!checked.ok) return sendKbError(reply, 422, checked.message);
        const entry = entries.update(bot.id, id, checked.value, ctx.clock.now());
        if (!entry) return notFound(reply, request);
        return { ok: true, entry };
      };
      scope.put('/:id', update);
      scope.patch('/:id', update);

      scope.delete('/:id', async (request, reply) => {
        const bot = auth.botOf(request);
        const id = entryId(request);
        if (id === null || !entries.remove(bot.id, id)) return notFound(reply, request);
        return { ok: true };
      });
    },
    { prefix: '/api/mebot/kb/entries' },
  );
}

function entryId(request: FastifyRequest): number | null {
  const raw = (request.params as { id?: string }).id ?? '';
  if (!/^[1-9]\d{0,15}$/.test(raw)) return null;
  const id = Number(raw);
  return Number.isSafeInteger(id) ? id : null;
}

function notFound(reply: FastifyReply, request: FastifyRequest) {
  const raw = (request.params as { id?: string }).id ?? '';
  return sendKbError(reply, 404, `No entry with id "${raw}" belongs to this bot.`);
}
