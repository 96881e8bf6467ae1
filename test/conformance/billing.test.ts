// file-hosting-api.md sections 2-3 and the billing rules, on the admin clock (reference-server.md): the
// daily measure-and-charge, usage snapshots, arrears and UPLOADS-PAUSED, a top-up settling arrears first,
// closing after the grace days (403 CLIENT-CLOSED). A high --price-per-gb-month-paise makes small files
// cost whole paise, so no test needs large files; the flag itself is checked through /me.
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DATE_ONLY,
  disposeServer,
  type Reply,
  type RunningServer,
  secondsToNextIstMidnight,
  sortedKeys,
  startServer,
  uploadBuffered as upload,
} from './harness';

const PRICE = 1_000_000_000; // paise per GB-month
let server: RunningServer;

beforeAll(async () => {
  server = await startServer(['--rate-limit-per-minute', '0', '--price-per-gb-month-paise', String(PRICE)]);
});
afterAll(() => disposeServer(server));

function expectFailure(reply: Reply, status: number, code: string) {
  expect({ status: reply.status, code: reply.json?.code }, reply.text).toEqual({ status, code });
  expect(reply.json.data).toBeNull();
  expect(reply.json.errors.length).toBeGreaterThan(0);
}

async function newClient(wallet_paise: number) {
  const r = await server.admin('POST', '/clients', { name: 'Billed', wallet_paise });
  expect(r.status).toBe(201);
  return { id: r.json.client.id as number, key: r.json.api_key as string };
}

async function me(key: string) {
  const r = await server.api('GET', '/me', key);
  expect(r.status, r.text).toBe(200);
  return r.json.data;
}

/** Advances the server clock to just past the next IST midnight; returns the IST dates before and after. */
async function crossMidnight(): Promise<{ before: string; after: string }> {
  const clock = await server.admin('GET', '/clock');
  const advanced = await server.admin('POST', '/clock/advance', {
    seconds: secondsToNextIstMidnight(clock.json.now),
  });
  expect(advanced.status).toBe(200);
  return { before: clock.json.ist.slice(0, 10), after: advanced.json.ist.slice(0, 10) };
}

async function advanceDays(days: number) {
  const r = await server.admin('POST', '/clock/advance', { seconds: days * 86_400 });
  expect(r.status).toBe(200);
}

function bytes(n: number, seed: string) {
  return Buffer.alloc(n, seed);
}

describe('the admin clock', () => {
  it('POST /clock/advance answers {now, ist} moved on by the seconds given', async () => {
    const before = await server.admin('GET', '/clock');
    const after = await server.admin('POST', '/clock/advance', { seconds: 3_600 });
    expect(after.status).toBe(200);
    expect(sortedKeys(after.json)).toEqual(['ist', 'now']);
    const moved = Date.parse(after.json.now) - Date.parse(before.json.now);
    expect(moved).toBeGreaterThanOrEqual(3_600_000);
    expect(moved).toBeLessThan(3_600_000 + 10_000);
  });

  it('refuses seconds that are not a positive integer with a 4xx', async () => {
    for (const body of [{ seconds: 0 }, { seconds: -5 }, { seconds: 1.5 }, { seconds: 'x' }, {}]) {
      const r = await server.admin('POST', '/clock/advance', body);
      expect(r.status, JSON.stringify(body)).toBeGreaterThanOrEqual(400);
      expect(r.status).toBeLessThan(500);
    }
  });
});

describe('daily measure and charge', () => {
  it('--price-per-gb-month-paise is the pricing.per_gb_month_paise of /me', async () => {
    const { key } = await newClient(10_000);
    expect((await me(key)).pricing.per_gb_month_paise).toBe(PRICE);
  });

  it('reports rent in /me, then at IST midnight writes a snapshot and charges the wallet', async () => {
    const size = 30_000;
    const { key } = await newClient(100_000);
    const up = await upload(server, key, { bytes: bytes(size, 'a'), filename: 'rent.txt' });
    expect(up.status).toBe(201);
    const account = await me(key);
    const { daily_rent_paise: daily, monthly_estimate_paise: monthly } = account.usage;
    // GB decimal or binary, days per month and rounding are not shown: accept any of those readings.
    expect(daily).toBeGreaterThanOrEqual(Math.floor((size * PRICE) / 2 ** 30 / 31) - 1);
    expect(daily).toBeLessThanOrEqual(Math.ceil((size * PRICE) / 1e9 / 28) + 1);
    expect(monthly).toBeGreaterThanOrEqual(daily * 28 - 1);
    expect(monthly).toBeLessThanOrEqual((daily + 1) * 31);

    const { before, after } = await crossMidnight();
    const usage = await server.api('GET', '/usage?days=7', key);
    expect(usage.status).toBe(200);
    expect(usage.json.meta).toEqual({ days: 7, count: 1 });
    expect(usage.json.data).toHaveLength(1);
    const snap = usage.json.data[0];
    expect(sortedKeys(snap)).toEqual(['bytes_used', 'files_count', 'outcome', 'rent_paise', 'usage_date']);
    expect(snap.usage_date).toMatch(DATE_ONLY);
    expect([before, after]).toContain(snap.usage_date);
    expect(snap).toMatchObject({ bytes_used: size, files_count: 1, outcome: 'CHARGED' });
    expect(snap.rent_paise).toBe(daily);
    expect((await me(key)).wallet.balance_paise).toBe(100_000 - snap.rent_paise);

    // A second day adds a second snapshot; days=1 still limits the reply to one day.
    await crossMidnight();
    const two = await server.api('GET', '/usage?days=7', key);
    expect(two.json.meta).toEqual({ days: 7, count: 2 });
    expect(new Set(two.json.data.map((s: { usage_date: string }) => s.usage_date)).size).toBe(2);
    const one = await server.api('GET', '/usage?days=1', key);
    expect(one.json.meta.days).toBe(1);
    expect(one.json.data.length).toBeLessThanOrEqual(1);
    expect((await me(key)).wallet.balance_paise).toBe(100_000 - 2 * snap.rent_paise);
  });

  it('a day whose rent is under one paisa is free; deleted files are not billed', async () => {
    const { key } = await newClient(10_000);
    const tiny = await upload(server, key, { bytes: 'x', filename: 'tiny.txt' });
    const big = await upload(server, key, { bytes: bytes(30_000, 'b'), filename: 'big.txt' });
    expect((await server.api('DELETE', `/files/${big.json.data.id}`, key)).status).toBe(202);
    const account = await me(key);
    expect(account.usage).toMatchObject({ files_count: 1, bytes_used: 1, daily_rent_paise: 0 });
    await crossMidnight();
    const usage = await server.api('GET', '/usage?days=3', key);
    expect(usage.json.data).toHaveLength(1);
    expect(usage.json.data[0]).toMatchObject({ bytes_used: 1, files_count: 1, rent_paise: 0 });
    expect((await me(key)).wallet.balance_paise).toBe(10_000);
    expect((await server.api('GET', `/files/${tiny.json.data.id}`, key)).status).toBe(200);
  });
});

describe('arrears', () => {
  it('an uncovered day becomes arrears: uploads 402 UPLOADS-PAUSED, reads and deletes keep working', async () => {
    const { id, key } = await newClient(20_000);
    const big = await upload(server, key, { bytes: bytes(200_000, 'c'), filename: 'big.txt' });
    const small = await upload(server, key, { bytes: 'small', filename: 'small.txt' });
    expect(big.status).toBe(201);
    const daily = (await me(key)).usage.daily_rent_paise;
    expect(daily).toBeGreaterThan(5_500);

    // The admin wallet call debits with a negative amount.
    const debit = await server.admin('POST', `/clients/${id}/wallet`, { amount_paise: -14_500 });
    expect(debit.status).toBe(200);
    expect(debit.json).toEqual({ balance_paise: 5_500, arrears_paise: 0 });

    await crossMidnight();
    const account = await me(key);
    // Status values other than ACTIVE are not shown; only its type is checked while in arrears.
    expect(typeof account.client.status).toBe('string');
    expect(account.arrears.paise).toBeGreaterThan(0);
    expect(account.arrears.paise).toBeLessThanOrEqual(daily);
    expect(typeof account.arrears.since).toBe('string');
    expect(typeof account.arrears.deadline).toBe('string');
    // Whatever booking of a partly covered day: nothing is created or lost.
    expect(account.wallet.balance_paise + daily - account.arrears.paise).toBe(5_500);

    expectFailure(await upload(server, key, { bytes: 'x', filename: 'x.txt' }), 402, 'UPLOADS-PAUSED');
    expect((await server.api('GET', '/files', key)).json.meta.total).toBe(2);
    expect((await server.api('GET', `/files/${big.json.data.id}`, key)).status).toBe(200);
    expect((await fetch(big.json.data.url)).status).toBe(200);
    expect((await server.api('DELETE', `/files/${small.json.data.id}`, key)).status).toBe(202);

    // A top-up settles arrears first: one that does not cover them keeps uploads paused.
    const partial = await server.admin('POST', `/clients/${id}/wallet`, { amount_paise: 1 });
    expect(partial.status).toBe(200);
    expect(partial.json).toEqual({
      balance_paise: account.wallet.balance_paise,
      arrears_paise: account.arrears.paise - 1,
    });
    expectFailure(await upload(server, key, { bytes: 'x', filename: 'x.txt' }), 402, 'UPLOADS-PAUSED');

    const topUp = await server.admin('POST', `/clients/${id}/wallet`, { amount_paise: 50_000 });
    expect(topUp.json).toEqual({
      balance_paise: account.wallet.balance_paise + 50_000 - (account.arrears.paise - 1),
      arrears_paise: 0,
    });
    const settled = await me(key);
    expect(settled.arrears).toEqual({ paise: 0, since: null, deadline: null });
    expect(settled.wallet.balance_paise).toBe(topUp.json.balance_paise);
    const again = await upload(server, key, { bytes: 'x', filename: 'x.txt' });
    expect(again.status, again.text).toBe(201);
  });

  it('after 30 days of unpaid arrears the client is closed: 403 CLIENT-CLOSED, files removed', async () => {
    const { id, key } = await newClient(20_000);
    const file = await upload(server, key, { bytes: bytes(200_000, 'd'), filename: 'doomed.txt' });
    const extra = await server.admin('POST', `/clients/${id}/keys`);
    await server.admin('POST', `/clients/${id}/wallet`, { amount_paise: -14_500 });
    await crossMidnight();
    expect((await me(key)).arrears.paise).toBeGreaterThan(0);

    await advanceDays(28);
    const still = await me(key);
    expect(still.arrears.paise).toBeGreaterThan(0);
    expect((await fetch(file.json.data.url)).status).toBe(200);

    await advanceDays(3);
    expectFailure(await server.api('GET', '/me', key), 403, 'CLIENT-CLOSED');
    expectFailure(await server.api('GET', '/files', key), 403, 'CLIENT-CLOSED');
    expectFailure(await server.api('GET', `/files/${file.json.data.id}`, key), 403, 'CLIENT-CLOSED');
    expectFailure(await server.api('GET', '/usage?days=7', key), 403, 'CLIENT-CLOSED');
    expectFailure(await server.api('DELETE', `/files/${file.json.data.id}`, key), 403, 'CLIENT-CLOSED');
    expectFailure(await upload(server, key, { bytes: 'x', filename: 'x.txt' }), 403, 'CLIENT-CLOSED');
    expectFailure(await server.api('GET', '/me', extra.json.api_key), 403, 'CLIENT-CLOSED');
    expect((await fetch(file.json.data.url)).status).not.toBe(200);
  });

  it('other clients are untouched by a neighbour closing', async () => {
    const { key } = await newClient(10_000);
    const up = await upload(server, key, { bytes: 'fine', filename: 'fine.txt' });
    expect(up.status).toBe(201);
    expect(up.json.data.hash).toBe(createHash('md5').update('fine').digest('hex'));
  });
});
