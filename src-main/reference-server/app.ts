import Fastify, { type FastifyInstance, LogController } from 'fastify';
import { requireAdminToken } from './admin/auth';
import { registerClockRoutes } from './admin/clock-routes';
import type { ServerContext, ServerModule } from './context';
import { JSON_BODY_LIMIT } from './http/body-limits';
import { answerError, installErrorHandling } from './http/error-handling';

export const ADMIN_PREFIX = '/__admin/v1';

/** Builds the HTTP app: error shapes, each module's routes, and the admin surface behind its token. */
export async function buildApp(
  ctx: ServerContext,
  modules: readonly ServerModule[],
  adminToken: string,
): Promise<FastifyInstance> {
  const app = Fastify({
    loggerInstance: ctx.log,
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: JSON_BODY_LIMIT,
    // A path Fastify cannot decode (`%ff`) answers in the surface's own error shape, not Fastify's.
    frameworkErrors: answerError,
    // Object URLs are long: names up to 255 bytes, percent-encoded.
    routerOptions: { maxParamLength: 4096 },
    return503OnClosing: true,
    forceCloseConnections: true,
  });
  installErrorHandling(app);
  for (const module of modules) await module.register(app, ctx);
  await app.register(
    async (admin) => {
      requireAdminToken(admin, adminToken);
      registerClockRoutes(admin, ctx);
      for (const module of modules) await module.registerAdmin?.(admin, ctx);
    },
    { prefix: ADMIN_PREFIX },
  );
  return app;
}
