import { join } from 'node:path';
import { type AppService, createAppService } from '../../src-main/core/app/app-service';
import { memorySecrets } from '../support/secrets';

/**
 * A real app service on `<root>/data`, connected to its own sandbox. Give the same `secrets` to a second
 * call on the same root to restart the app on its data (the bot tokens are in the secret store).
 */
export async function appOnSandbox(root: string, secrets = memorySecrets()): Promise<AppService> {
  const app = await createAppService({
    dataDir: join(root, 'data'),
    secrets,
    env: {},
    log: () => {},
    engine: { stabilityMs: 100 },
  });
  const r = await app.call('session.useSandbox', {});
  if (!r.ok) throw new Error(r.error.message);
  return app;
}
