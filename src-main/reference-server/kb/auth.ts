import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sendKbError } from '../http/envelopes';
import type { Bot, BotStore } from './bots';
import type { MinuteLimiter } from './rate-limit';

/**
 * Every entry request: `X-Bot-Token` names the bot (401 when missing or unknown), then the bot's client
 * spends one request of its minute budget (429 with Retry-After). Both run before the body is parsed,
 * so a bad token is a 401 whatever the body holds.
 */
export function requireBotToken(scope: FastifyInstance, bots: BotStore, limiter: MinuteLimiter) {
  const callers = new WeakMap<FastifyRequest, Bot>();
  scope.addHook('onRequest', async (request, reply) => {
    const header = request.headers['x-bot-token'];
    const token = typeof header === 'string' ? header.trim() : '';
    if (token === '') return sendKbError(reply, 401, 'Missing X-Bot-Token header.');
    const bot = bots.byToken(token);
    if (!bot) return sendKbError(reply, 401, 'Invalid X-Bot-Token: no bot has this token.');
    const wait = limiter.take(bot.clientId);
    if (wait !== null) {
      reply.header('retry-after', String(wait));
      return sendKbError(
        reply,
        429,
        `Rate limit exceeded (${limiter.limit} requests per minute per client); retry in ${wait} s.`,
      );
    }
    callers.set(request, bot);
  });
  return {
    /** The authenticated bot of a request that passed the hook. */
    botOf(request: FastifyRequest): Bot {
      const bot = callers.get(request);
      if (!bot) throw new Error('entry route reached without a bot');
      return bot;
    },
  };
}
