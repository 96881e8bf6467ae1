import type { ServerModule } from '../context';
import { registerBotRoutes } from './admin/bot-routes';
import { registerDeliveryRoutes } from './admin/delivery-routes';
import { registerKbTestAidRoutes } from './admin/test-aid-routes';
import { SERVER_KB_MIGRATIONS } from './migrations';
import { registerEntryRoutes } from './routes/entries';
import { runtimeOf } from './runtime';

/** The knowledge-entry API and the signed lead webhook (knowledge-entry-api-and-webhook.md). */
export const kbModule: ServerModule = {
  name: 'kb',
  migrations: SERVER_KB_MIGRATIONS,
  migrationIds: { first: 100, last: 199 },
  async register(app, ctx) {
    const rt = runtimeOf(ctx);
    // Per server, not per module object: several servers may share this process.
    app.addHook('onClose', async () => {
      await rt.dispatcher.close();
    });
    await registerEntryRoutes(app, ctx, rt);
  },
  registerAdmin(admin, ctx) {
    const rt = runtimeOf(ctx);
    registerBotRoutes(admin, ctx, rt.bots);
    registerDeliveryRoutes(admin, ctx, rt);
    registerKbTestAidRoutes(admin, ctx, rt);
  },
  jobs: (ctx) => [runtimeOf(ctx).dispatcher.job],
  seedDemo(ctx, demo) {
    const clientId = demo.client_id;
    if (typeof clientId !== 'number') {
      ctx.log.info('no demo client: the demo bot is not created');
      return;
    }
    const created = runtimeOf(ctx).bots.create(
      { clientId, name: 'Demo bot', businessName: 'Demo business', webhookUrl: null },
      ctx.clock.now(),
    );
    demo.bot_id = created.bot.id;
    demo.bot_token = created.token;
    demo.signing_secret = created.signingSecret;
  },
  start(ctx) {
    runtimeOf(ctx).dispatcher.resume();
  },
};
