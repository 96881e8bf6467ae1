import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { serviceCache } from '../../src-main/core/service/cache';
import { SETTING, serviceSettingsStore } from '../../src-main/core/service/settings';
import { APP_MIGRATIONS } from '../../src-main/core/state/migrations';
import { openDatabase } from '../../src-main/shared-node/sqlite';
import type { Account } from '../../src-shared/api/file-hosting';

const dir = mkdtempSync(join(tmpdir(), 'assets-cache-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const account: Account = {
  client: { id: 1, name: 'Demo', status: 'ACTIVE', default_bucket: 'default' },
  usage: { files_count: 1, bytes_used: 10, daily_rent_paise: 0, monthly_estimate_paise: 0 },
  wallet: { balance_paise: 10_000, min_balance_to_upload_paise: 5_000 },
  arrears: { paise: 0, since: null, deadline: null },
  pricing: {
    per_gb_month_paise: 500,
    max_file_bytes: 209_715_200,
    allowed_extensions: ['pdf'],
    grace_days: 30,
  },
};

describe('settings and offline cache (the app database, real SQLite)', () => {
  it('keeps settings and the last copies with their fetch time across a reopen, per source', () => {
    const file1 = join(dir, 'app.sqlite');
    let db = openDatabase(file1, APP_MIGRATIONS);
    const at = new Date('2026-03-01T10:00:00Z');
    serviceSettingsStore(db).set(SETTING.accountBaseUrl, 'https://files.example.com');
    const cache = serviceCache(db);
    cache.putAccount('sandbox', account, at);
    cache.putUsage(
      'sandbox',
      7,
      [{ usage_date: '2026-02-28', bytes_used: 10, files_count: 1, rent_paise: 0, outcome: 'CHARGED' }],
      at,
    );
    db.close();

    db = openDatabase(file1, APP_MIGRATIONS);
    const again = serviceCache(db);
    expect(serviceSettingsStore(db).get(SETTING.accountBaseUrl)).toBe('https://files.example.com');
    expect(again.getAccount('sandbox')).toEqual({ value: account, fetchedAt: at.toISOString() });
    expect(again.getUsage('sandbox', 7)?.value).toHaveLength(1);
    expect(again.getAccount('https://files.example.com')).toBeNull();

    // A row that no longer matches the schema is a miss, never a crash or a wrong shape.
    db.prepare("UPDATE service_cache SET json = '{\"client\":1}' WHERE kind = 'account'").run();
    expect(again.getAccount('sandbox')).toBeNull();
    again.clear('sandbox');
    expect(again.getUsage('sandbox', 7)).toBeNull();
    serviceSettingsStore(db).delete(SETTING.accountBaseUrl);
    expect(serviceSettingsStore(db).get(SETTING.accountBaseUrl)).toBeNull();
    db.close();
  });
});
