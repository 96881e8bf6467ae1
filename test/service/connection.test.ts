import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { osKeychain } from '../../src-main/core/secrets/keychain';
import { apiKeyAccount, normalizeBaseUrl, resolveConnection } from '../../src-main/core/service/connection';
import { createFileApiClient } from '../../src-main/core/service/file-api-client';
import { SANDBOX_KEY_ACCOUNT } from '../../src-main/core/service/sandbox';
import { SETTING, serviceSettingsStore } from '../../src-main/core/service/settings';
import { APP_MIGRATIONS } from '../../src-main/core/state/migrations';
import { openDatabase } from '../../src-main/shared-node/sqlite';

// The real keychain (run through test/run.sh) and a real sandbox server in a temp data dir.
const dataDir = mkdtempSync(join(tmpdir(), 'assets-svc-conn-'));
const db = openDatabase(join(dataDir, 'app.sqlite'), APP_MIGRATIONS);
const settings = serviceSettingsStore(db);
const secrets = osKeychain();
afterAll(() => {
  db.close();
  secrets.delete(apiKeyAccount('http://127.0.0.1:7'));
  secrets.delete(SANDBOX_KEY_ACCOUNT);
  rmSync(dataDir, { recursive: true, force: true });
});

describe('connection resolution: env key > saved account > sandbox', () => {
  it('normalises addresses to one spelling and refuses what is not http(s)', () => {
    expect(normalizeBaseUrl('HTTP://Files.Example.com:80/a/b//')).toEqual({
      ok: true,
      value: 'http://files.example.com/a/b',
    });
    expect(normalizeBaseUrl('https://x.example/')).toEqual({ ok: true, value: 'https://x.example' });
    for (const bad of ['files.example.com', 'ftp://x', 'https://u:p@x', 'https://x/?a=1']) {
      const r = normalizeBaseUrl(bad);
      expect(!r.ok && r.error.code, bad).toBe('BASE-URL-INVALID');
    }
  });

  it('an env key needs an address; with one it wins over the saved account', async () => {
    const none = await resolveConnection({ dataDir, settings, secrets, env: { ASSETS_API_KEY: 'k1' } });
    expect(!none.ok && none.error.code).toBe('NO-BASE-URL');
    settings.set(SETTING.accountBaseUrl, 'http://127.0.0.1:7');
    secrets.set(apiKeyAccount('http://127.0.0.1:7'), 'saved-key');
    const env = await resolveConnection({ dataDir, settings, secrets, env: { ASSETS_API_KEY: 'k1' } });
    expect(env.ok && [env.value.kind, env.value.origin, env.value.apiKey, env.value.baseUrl]).toEqual([
      'account',
      'env',
      'k1',
      'http://127.0.0.1:7',
    ]);
    const saved = await resolveConnection({ dataDir, settings, secrets, env: {} });
    expect(saved.ok && [saved.value.origin, saved.value.apiKey]).toEqual(['keychain', 'saved-key']);
    const other = await resolveConnection({
      dataDir,
      settings,
      secrets,
      env: {},
      baseUrl: 'http://127.0.0.1:8',
    });
    expect(!other.ok && other.error.code).toBe('NOT-LOGGED-IN');
    expect(!other.ok && other.error.message).toContain('assets-sync login --base-url http://127.0.0.1:8');
    settings.delete(SETTING.accountBaseUrl);
  });

  it('with nothing saved, starts the sandbox under <dataDir>/sandbox with a fresh key on every start', async () => {
    const first = await resolveConnection({ dataDir, settings, secrets, env: {} });
    if (!first.ok) throw new Error(first.error.message);
    expect(first.value).toMatchObject({ kind: 'sandbox', origin: 'sandbox', cacheSource: 'sandbox' });
    expect(secrets.get(SANDBOX_KEY_ACCOUNT)).toBe(first.value.apiKey);
    const me = await createFileApiClient({ baseUrl: first.value.baseUrl, apiKey: first.value.apiKey }).me();
    expect(me.ok && me.value.client).toMatchObject({ id: 1, name: 'Demo' });
    await first.value.close();

    const second = await resolveConnection({ dataDir, settings, secrets, env: {} });
    if (!second.ok) throw new Error(second.error.message);
    expect(second.value.apiKey).not.toBe(first.value.apiKey);
    const again = await createFileApiClient({
      baseUrl: second.value.baseUrl,
      apiKey: second.value.apiKey,
    }).me();
    expect(again.ok && again.value.client.name).toBe('Demo'); // same data, no new demo client
    await second.value.close();
  });
});
