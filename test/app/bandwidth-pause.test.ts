import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createAppService } from '../../src-main/core/app/app-service';
import { memorySecrets } from '../support/secrets';

// The app's side of issue 12: the limit saved in Settings reaches the engine and the overview says
// what is in force; Pause all survives a restart of the app; bad limits are refused with a message.
describe('upload limit and pause all through the app service', () => {
  it('pause all survives a restart; the limit in force is in the overview', { timeout: 60_000 }, async () => {
    const root = mkdtempSync(join(tmpdir(), 'bw-app-'));
    try {
      const app = await createAppService({ dataDir: root, secrets: memorySecrets(), env: {}, log: () => {} });
      expect((await app.call('session.useSandbox', {})).ok).toBe(true);
      const bad = await app.call('settings.update', { bwlimit: 'fast' });
      expect(bad.ok).toBe(false);
      if (!bad.ok) expect(bad.error.message).toContain('512k');
      expect((await app.call('settings.update', { bwlimit: '512k' })).ok).toBe(true);
      const o = await app.call('sync.overview', {});
      if (!o.ok) throw new Error(o.error.message);
      expect(o.value.bandwidth?.text).toBe('Limited to 512 KiB/s');
      expect((await app.call('sync.pause', {})).ok).toBe(true);
      await app.close();

      const again = await createAppService({
        dataDir: root,
        secrets: memorySecrets(),
        env: {},
        log: () => {},
      });
      expect((await again.call('session.useSandbox', {})).ok).toBe(true);
      const o2 = await again.call('sync.overview', {});
      if (!o2.ok) throw new Error(o2.error.message);
      expect(o2.value.held?.code).toBe('USER-PAUSED');
      expect(o2.value.bandwidth?.text).toBe('Limited to 512 KiB/s');
      const s = await again.call('settings.get', {});
      expect(s.ok && s.value.pausedAll).toBe(true);
      expect((await again.call('sync.resume', {})).ok).toBe(true);
      const s2 = await again.call('settings.get', {});
      expect(s2.ok && s2.value.pausedAll).toBe(false);
      await again.close();
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
