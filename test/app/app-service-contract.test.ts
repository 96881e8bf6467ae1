import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { createAppService } from '../../src-main/core/app/app-service';
import { type CommandName, type CoreApi, commands, type RequestOf } from '../../src-shared/contract';
import type { Settings } from '../../src-shared/contract/settings';
import type { AppError, Result } from '../../src-shared/errors';
import { memorySecrets } from '../support/secrets';

describe('the app service is the contract API', () => {
  it('types each reply from the contract, and the replies it sends parse with the contract', async () => {
    const root = mkdtempSync(join(tmpdir(), 'app-contract-'));
    const app = await createAppService({ dataDir: root, secrets: memorySecrets(), env: {}, log: () => {} });
    try {
      // Compile-time: the same API the renderer has (tsc checks these lines in npm test).
      expectTypeOf(app.call).toEqualTypeOf<CoreApi['call']>();
      expectTypeOf(app.call('settings.get', {})).resolves.toEqualTypeOf<Result<Settings, AppError>>();

      expect((await app.call('session.useSandbox', {})).ok).toBe(true);
      const asked: { [C in CommandName]?: RequestOf<C> } = {
        'session.get': {},
        'settings.get': {},
        'sync.overview': {},
        'sync.queue': {},
        'activity.list': { limit: 10 },
        'files.index.query': {},
        'account.get': { refresh: true },
        'clock.get': {},
      };
      for (const [name, request] of Object.entries(asked) as [CommandName, never][]) {
        const r = await app.call(name, request);
        expect(r.ok, `${name}: ${JSON.stringify(r)}`).toBe(true);
        if (r.ok) expect(commands[name].reply.safeParse(r.value).success, name).toBe(true);
      }

      // The transports' way in: anything from the wire is checked before a handler runs.
      expect(await app.dispatch('fs.readFile', { path: '/etc/passwd' })).toMatchObject({
        ok: false,
        error: { code: 'UNKNOWN-COMMAND' },
      });
      expect(await app.dispatch('settings.update', { concurrency: 'lots' })).toMatchObject({
        ok: false,
        error: { code: 'VALIDATION' },
      });
    } finally {
      await app.close();
      rmSync(root, { recursive: true, force: true });
    }
  });
});
