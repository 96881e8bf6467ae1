import { z } from 'zod';
import { type AppError, appError, err, ok, type Result } from '../../../src-shared/errors';
import { httpJson } from '../service/http-json';
import type { BotRegistry } from './bots';

/** The demo client the reference server seeds on a new data folder (its ready line's `demo.client_id`). */
export const SANDBOX_CLIENT_ID = 1;

const MintedBot = z.object({
  bot: z.object({ id: z.number().int(), name: z.string() }),
  token: z.string().min(1),
  signing_secret: z.string().min(1),
});

export interface SandboxBotOptions {
  bots: BotRegistry;
  /** Removes a bot with its entries and secrets (the sandbox was reset, or its secrets are lost). */
  removeBot: (botId: number) => void;
  setSigningSecret: (botId: number, secret: string) => void;
  hasSigningSecret: (botId: number) => boolean;
  baseUrl: string;
  adminToken: string;
  /** Where the demo bot's leads go: the app's receiver. */
  webhookUrl: string | null;
}

async function admin(
  baseUrl: string,
  adminToken: string,
  method: 'POST' | 'PUT',
  path: string,
  body: unknown,
): Promise<{ status: number; json: unknown }> {
  const r = await httpJson({
    url: `${baseUrl}/__admin/v1${path}`,
    method,
    headers: { 'x-admin-token': adminToken },
    json: body,
  });
  // ensureSandboxBot turns the throw into KB-SANDBOX-BOT with the transport's reason.
  if (!r.ok) throw new Error(`the sandbox did not answer: ${r.error.reason}`);
  return { status: r.value.status, json: r.value.json };
}

/**
 * Makes the sandbox's demo bot ready by itself. The sandbox's port and admin token change on every
 * start and the app writes no secret to a file, so: the bot's row follows the new address; its token
 * and signing secret stay in the keychain from the first run; when they are missing (or the sandbox
 * was reset, so the bot is unknown there) a bot is minted through the admin surface; and the bot's
 * webhook URL is pointed at this run's receiver.
 */
export async function ensureSandboxBot(o: SandboxBotOptions): Promise<Result<number, AppError>> {
  try {
    let bot = o.bots.list().find((b) => b.isSandbox) ?? null;
    if (bot) {
      o.bots.update(bot.localId, { baseUrl: o.baseUrl });
      const usable = bot.remoteBotId !== null && o.bots.token(bot.localId) && o.hasSigningSecret(bot.localId);
      if (usable) {
        const put = await admin(o.baseUrl, o.adminToken, 'PUT', `/bots/${bot.remoteBotId}`, {
          webhook_url: o.webhookUrl,
        });
        if (put.status === 200) return ok(bot.localId);
        if (put.status !== 404) return err(sandboxError(`setting the webhook URL answered ${put.status}`));
      }
      // Unknown to the server (a reset sandbox) or secrets lost: start this bot over.
      o.removeBot(bot.localId);
      bot = null;
    }
    const minted = await admin(o.baseUrl, o.adminToken, 'POST', '/bots', {
      client_id: SANDBOX_CLIENT_ID,
      name: 'Demo bot',
      business_name: 'Demo business',
      ...(o.webhookUrl ? { webhook_url: o.webhookUrl } : {}),
    });
    const parsed = minted.status === 201 ? MintedBot.safeParse(minted.json) : null;
    if (!parsed?.success) return err(sandboxError(`creating the demo bot answered ${minted.status}`));
    const added = o.bots.add({
      baseUrl: o.baseUrl,
      token: parsed.data.token,
      name: parsed.data.bot.name,
      remoteBotId: parsed.data.bot.id,
      isSandbox: true,
    });
    o.setSigningSecret(added.localId, parsed.data.signing_secret);
    return ok(added.localId);
  } catch (error) {
    return err(sandboxError((error as Error).message));
  }
}

const sandboxError = (why: string) =>
  appError(
    'KB-SANDBOX-BOT',
    `The sandbox's demo bot could not be set up (${why}). Entries and leads of other bots still work.`,
  );
