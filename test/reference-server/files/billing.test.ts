import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatIstMinute, parseIst } from '../../../src-shared/domain/ist-time';
import { PAISA_PER_BYTE_DAY, startServer, type TestServer } from './helpers';

// At this price a day's rent is one paisa per stored byte, so small files make exact sums.
let s: TestServer;
beforeAll(async () => {
  s = await startServer({ pricePerGbMonthPaise: PAISA_PER_BYTE_DAY });
});
afterAll(() => s.stop());

const bytes = (n: number) => 'x'.repeat(n);

describe('daily charge, arrears, top-up', () => {
  it('charges at each IST midnight, books arrears, pauses uploads, and a covering top-up resumes them', async () => {
    const c = await s.newClient({ wallet_paise: 10_000 });
    const k = c.api_key;
    const file = (await s.upload(k, 'rent.txt', bytes(3_000))).json.data;
    const me0 = (await s.api(k, 'GET', '/me')).json.data;
    expect(me0.usage).toEqual({
      files_count: 1,
      bytes_used: 3_000,
      daily_rent_paise: 3_000,
      monthly_estimate_paise: 90_000,
    });

    await s.passMidnights(1);
    const me1 = (await s.api(k, 'GET', '/me')).json.data;
    expect(me1.wallet.balance_paise).toBe(7_000);
    const usage1 = await s.api(k, 'GET', '/usage');
    expect(usage1.json.meta).toEqual({ days: 30, count: 1 });
    expect(usage1.json.data[0]).toMatchObject({
      bytes_used: 3_000,
      files_count: 1,
      rent_paise: 3_000,
      outcome: 'CHARGED',
    });
    expect(usage1.json.data[0].usage_date).toMatch(/^\d{4}-\d{2}-\d{2}$/);

    await s.passMidnights(2); // 7,000 -> 4,000 -> 1,000 left
    expect((await s.api(k, 'GET', '/me')).json.data.wallet.balance_paise).toBe(1_000);
    expect((await s.upload(k, 'b.txt', 'b')).json.code).toBe('LOW-BALANCE');

    await s.passMidnights(1); // 3,000 due, 1,000 paid, 2,000 arrears
    const me4 = (await s.api(k, 'GET', '/me')).json.data;
    expect(me4.client.status).toBe('PAUSED');
    expect(me4.wallet.balance_paise).toBe(0);
    expect(me4.arrears.paise).toBe(2_000);
    const since = parseIst(me4.arrears.since)!;
    expect(formatIstMinute(since)).toMatch(/ 00:00$/);
    expect(parseIst(me4.arrears.deadline)! - since).toBe(30 * 86_400_000);
    const usage4 = (await s.api(k, 'GET', '/usage?days=7')).json;
    expect(usage4.data.map((u: { outcome: string }) => u.outcome)).toEqual([
      'ARREARS',
      'CHARGED',
      'CHARGED',
      'CHARGED',
    ]);
    const up = await s.upload(k, 'c.txt', 'c');
    expect([up.status, up.json.code]).toEqual([402, 'UPLOADS-PAUSED']);
    // reads keep working in arrears
    expect((await s.api(k, 'GET', `/files/${file.id}`)).status).toBe(200);
    expect((await fetch(file.url)).status).toBe(200);

    const partial = await s.admin('POST', `/clients/${c.client.id}/wallet`, { amount_paise: 500 });
    expect(partial.json).toEqual({ balance_paise: 0, arrears_paise: 1_500 });
    expect((await s.upload(k, 'c.txt', 'c')).json.code).toBe('UPLOADS-PAUSED');
    const settle = await s.admin('POST', `/clients/${c.client.id}/wallet`, { amount_paise: 7_000 });
    expect(settle.json).toEqual({ balance_paise: 5_500, arrears_paise: 0 });
    const me5 = (await s.api(k, 'GET', '/me')).json.data;
    expect(me5.client.status).toBe('ACTIVE');
    expect(me5.arrears).toEqual({ paise: 0, since: null, deadline: null });
    expect((await s.upload(k, 'c.txt', 'c')).status).toBe(201);
    // deletes keep working, and a deleted file is no longer billed
    expect((await s.api(k, 'DELETE', `/files/${file.id}`)).status).toBe(202);
  });

  it('a day under one paisa is free; debits never go below zero', async () => {
    const cheap = await startServer();
    try {
      const k = String(cheap.server.demo!.api_key);
      await cheap.upload(k, 'tiny.txt', 'tiny');
      await cheap.passMidnights(1);
      const u = (await cheap.api(k, 'GET', '/usage?days=1')).json;
      expect(u.data).toEqual([
        expect.objectContaining({ bytes_used: 4, files_count: 1, rent_paise: 0, outcome: 'FREE' }),
      ]);
      expect((await cheap.api(k, 'GET', '/me')).json.data.wallet.balance_paise).toBe(10_000);
      const id = cheap.server.demo!.client_id;
      expect((await cheap.admin('POST', `/clients/${id}/wallet`, { amount_paise: -99_999 })).json).toEqual({
        balance_paise: 0,
        arrears_paise: 0,
      });
      expect((await cheap.admin('POST', `/clients/${id}/wallet`, { amount_paise: 0 })).status).toBe(400);
      expect((await cheap.admin('POST', '/clients/999/wallet', { amount_paise: 5 })).status).toBe(404);
    } finally {
      await cheap.stop();
    }
  });
});

describe('closing after the grace days', () => {
  it('closes the account after 30 days of unpaid arrears: files removed, every request 403', async () => {
    const c = await s.newClient({ wallet_paise: 10_000 });
    const k = c.api_key;
    const f = (await s.upload(k, 'doomed.txt', bytes(100))).json.data;
    await s.admin('POST', `/clients/${c.client.id}/wallet`, { amount_paise: -10_000 });
    const objectsBefore = s.objectCount();
    await s.passMidnights(1);
    const me = (await s.api(k, 'GET', '/me')).json.data;
    expect(me.arrears.paise).toBe(100);
    await s.passMidnights(29);
    const still = await s.api(k, 'GET', '/me');
    expect(still.status).toBe(200);
    expect(still.json.data.arrears.paise).toBe(3_000);
    expect(still.json.data.arrears.since).toBe(me.arrears.since);
    await s.passMidnights(1);
    for (const [method, path] of [
      ['GET', '/me'],
      ['GET', '/files'],
      ['GET', `/files/${f.id}`],
      ['DELETE', `/files/${f.id}`],
      ['GET', '/usage'],
    ] as const) {
      const r = await s.api(k, method, path);
      expect([r.status, r.json.code]).toEqual([403, 'CLIENT-CLOSED']);
    }
    expect((await s.upload(k, 'x.txt', 'x')).json.code).toBe('CLIENT-CLOSED');
    expect((await fetch(f.url)).status).toBe(404);
    expect(s.objectCount()).toBe(objectsBefore - 1);
    const fresh = await s.admin('POST', `/clients/${c.client.id}/keys`);
    expect((await s.api(fresh.json.api_key, 'GET', '/me')).json.code).toBe('CLIENT-CLOSED');
    expect((await s.admin('POST', `/clients/${c.client.id}/wallet`, { amount_paise: 100 })).status).toBe(409);
  });
});

describe('planted wrong charge (PUT /faults rent_error_paise, issue 35)', () => {
  it('adds the amount to the next daily charge only, then clears itself', async () => {
    const c = await s.newClient({ wallet_paise: 10_000 });
    const k = c.api_key;
    await s.upload(k, 'rent.txt', bytes(100));
    const set = await s.admin('PUT', '/faults', { rent_error_paise: 37 });
    expect(set.status).toBe(200);
    expect(set.json).toMatchObject({ rent_error_paise: 37 });
    await s.passMidnights(2);
    const days = (await s.api(k, 'GET', '/usage?days=7')).json.data as { rent_paise: number }[];
    // Newest first: the second midnight is honest again, the first carries the planted 37 paise.
    expect(days.map((d) => d.rent_paise)).toEqual([100, 137]);
    expect((await s.api(k, 'GET', '/me')).json.data.wallet.balance_paise).toBe(10_000 - 237);
    expect((await s.admin('PUT', '/faults', {})).json).toMatchObject({ rent_error_paise: 0 });
    const bad = await s.admin('PUT', '/faults', { rent_error_paise: 1.5 });
    expect(bad.status).toBe(400);
    expect(bad.json.error).toMatch(/rent_error_paise/);
  });
});
