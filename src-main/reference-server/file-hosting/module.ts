import type { ServerModule } from '../context';
import { registerFileHostingAdmin } from './admin-routes';
import { installApiGuards } from './auth';
import { billingJob } from './billing';
import { registerCdn } from './cdn';
import { hostingOf } from './hosting';
import { FILE_HOSTING_MIGRATIONS } from './migrations';
import { registerFilesDelete } from './routes/files-delete';
import { registerFilesRead } from './routes/files-read';
import { registerFilesUpload } from './routes/files-upload';
import { registerMe } from './routes/me';
import { registerUsage } from './routes/usage';

export const FILE_API_PREFIX = '/api/assets/v1';

/** The file-hosting API (file-hosting-api.md), its CDN, billing and admin routes. Migration ids 10-99. */
export const fileHostingModule: ServerModule = {
  name: 'file-hosting',
  migrations: FILE_HOSTING_MIGRATIONS,
  migrationIds: { first: 10, last: 99 },
  async register(app, ctx) {
    const hosting = hostingOf(ctx);
    await app.register(
      async (api) => {
        installApiGuards(api, hosting);
        registerMe(api, hosting);
        await registerFilesUpload(api, hosting);
        registerFilesRead(api, hosting);
        registerFilesDelete(api, hosting);
        registerUsage(api, hosting);
      },
      { prefix: FILE_API_PREFIX },
    );
    registerCdn(app, hosting);
  },
  registerAdmin(admin, ctx) {
    registerFileHostingAdmin(admin, hostingOf(ctx));
  },
  jobs: (ctx) => [billingJob(hostingOf(ctx))],
  seedDemo(ctx, demo) {
    const opened = hostingOf(ctx).openClient({ name: 'Demo', walletPaise: 10_000, defaultBucket: 'default' });
    demo.client_id = opened.client.id;
    demo.api_key = opened.api_key;
    demo.key_id = opened.key_id;
  },
};
