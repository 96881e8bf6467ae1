import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createAppService } from '../../src-main/core/app/app-service';
import type { AnyEvent } from '../../src-shared/contract';
import { memorySecrets } from '../support/secrets';
import { startServer, testClient } from '../sync/helpers';

// The app service connected to an account (its service clock follows the Date header, which this server
// keeps at the machine's time, so the day does not move here: the digest is tested in test/sync) (a real reference server at a price where 161,100 bytes cost
// 250 paise a day): a refresh of /me that crosses a threshold sends one `notify` of kind runway, once.
describe('runway alerts through the app service', () => {
  it('notifies once when the floor comes within the set days, not again at the next refresh', async () => {
    const server = await startServer({ pricePerGbMonthPaise: 50_000_000 });
    const dir = mkdtempSync(join(tmpdir(), 'runway-app-'));
    const app = await createAppService({
      dataDir: join(dir, 'data'),
      secrets: memorySecrets(),
      env: { ASSETS_API_KEY: server.demoKey, ASSETS_BASE_URL: server.baseUrl },
      log: () => {},
    });
    const events: AnyEvent[] = [];
    const off = app.subscribe((e) => events.push(e));
    try {
      const bytes = randomBytes(161_100);
      const path = join(dir, 'big.pdf');
      writeFileSync(path, bytes);
      const client = testClient(server.baseUrl, server.demoKey);
      const md5 = createHash('md5').update(bytes).digest('hex');
      expect((await client.uploadFile({ path, size: bytes.length, name: 'big.pdf', md5 })).ok).toBe(true);
      expect((await app.call('settings.update', { runwayAlertDays: 30 })).ok).toBe(true);
      const runway = () => events.filter((e) => e.event === 'notify' && e.payload.kind === 'runway');
      // 10,000 paise at 250 a day: under the 5,000 floor at the 21st charge, within 30 days.
      expect((await app.call('account.get', { refresh: true })).ok).toBe(true);
      await expect.poll(() => runway().length).toBe(1);
      expect((await app.call('account.get', { refresh: true })).ok).toBe(true);
      expect(runway()).toHaveLength(1);
      const first = runway()[0];
      expect(first?.event === 'notify' && first.payload.title).toMatch(/^Uploads stop in \d+ days$/);
    } finally {
      off();
      await app.close();
      rmSync(dir, { recursive: true, force: true });
      await server.stop();
    }
  }, 60_000);
});
