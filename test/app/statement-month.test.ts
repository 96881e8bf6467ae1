import { execFileSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppService } from '../../src-main/core/app/app-service';
import type { UsageSnapshot } from '../../src-shared/api/file-hosting';
import type { AnyEvent } from '../../src-shared/contract';
import type { Statement } from '../../src-shared/contract/statement';
import { DAY_MS, formatIstDate, parseIst } from '../../src-shared/domain/ist-time';
import { formatServiceDate } from '../../src-shared/domain/time-format';
import { runCli } from '../cli/run-cli';
import { adminCall } from '../support/reference-server';
import { until } from '../support/wait';
import { appOnSandbox } from './sandbox-app';

const value = async <T>(p: Promise<{ ok: boolean; value?: unknown; error?: unknown }>): Promise<T> => {
  const r = await p;
  if (!r.ok) throw new Error(JSON.stringify(r.error));
  return r.value as T;
};

const MIB = 1024 * 1024;
const TOP_UPS = [8_000, 3_000];
const PLANTED_PAISE = 7;

/**
 * Issue 35, "Done when": the app's own sandbox, its clock moved through a whole month a day at a time
 * (the app reads /me after each move, as its Sandbox panel does), with files uploaded (seeded on the
 * service's side and one sent by the app) and deleted (by the app), a day in arrears, two top-ups and
 * one charge planted wrong (`rent_error_paise`). The statement must give /usage's rent for every day,
 * its own figure equal to it on every honest day, one flag on the planted day, the two top-ups as its
 * credits, and opening + credits - rent = closing; the CLI's --json, --csv and --pdf tell the same.
 */
describe('the statement of a month on the sandbox', () => {
  let root: string;
  let app: AppService;
  let month: string;
  let plantedDay: string;
  let statement: Statement;
  let usage: UsageSnapshot[];
  const events: AnyEvent[] = [];
  const flagged = () =>
    events.filter(
      (e) =>
        e.event === 'notify' &&
        e.payload.kind === 'runway' &&
        e.payload.body.includes(formatServiceDate(plantedDay)),
    );

  const admin = (method: string, path: string, body?: unknown) => {
    const c = app.context.session.live!.connection;
    return adminCall(c.baseUrl, c.adminToken!, method, path, body);
  };
  const serviceNow = async () => parseIst(((await admin('GET', '/clock')).json as { ist: string }).ist)!;
  const advanceTo = async (target: number) => {
    const now = await serviceNow();
    const r = await admin('POST', '/clock/advance', { seconds: Math.round((target - now) / 1000) });
    expect(r.status).toBe(200);
    // As the Sandbox panel does after a move: the clock read again, then /me (kept as a read).
    expect((await app.call('account.get', { refresh: true })).ok).toBe(true);
  };
  const indexCount = async () => (await value<{ count: number }>(app.call('files.index.summary', {}))).count;

  beforeAll(async () => {
    // STATEMENT_LAB_DIR keeps the month's data folder to look at (the CLI, the PDF, the view).
    root = process.env.STATEMENT_LAB_DIR ?? mkdtempSync(join(tmpdir(), 'statement-month-'));
    app = await appOnSandbox(root);
    app.subscribe((e) => events.push(e));
    const clientId = (await value<{ value: { client: { id: number } } }>(app.call('account.get', {}))).value
      .client.id;

    // The month after the service's current one, so the month is whole; start the day before it, at noon.
    const now = await serviceNow();
    const [y, m] = formatIstDate(now).slice(0, 7).split('-').map(Number) as [number, number];
    month = m === 12 ? `${y + 1}-01` : `${y}-${String(m + 1).padStart(2, '0')}`;
    const first = parseIst(`${month}-01 12:00`)!;
    await advanceTo(first - DAY_MS);

    // 2 GiB live before the month, a wallet of 2.50 rupees: arrears come within the month.
    expect(
      (await admin('POST', '/files/seed', { client_id: clientId, count: 2048, bytes: MIB })).status,
    ).toBe(201);
    expect((await app.call('sandbox.wallet', { drain: true })).ok).toBe(true);
    expect((await app.call('sandbox.wallet', { topUpPaise: 250 })).ok).toBe(true);
    await value(app.call('files.index.refresh', {}));
    expect((await app.call('account.get', { refresh: true })).ok).toBe(true);

    const days = Number(new Date(Date.UTC(y, m + 1, 0)).getUTCDate()) || 30;
    for (let day = 1; day <= days; day++) {
      await advanceTo(first + (day - 1) * DAY_MS);
      if (day === 3) {
        // Uploads on the service's side: the index learns them with their dates at its next refresh.
        const seeded = await admin('POST', '/files/seed', {
          client_id: clientId,
          count: 100,
          bytes: MIB,
          bucket: 'media',
          extension: 'mp4',
        });
        expect(seeded.status).toBe(201);
        await value(app.call('files.index.refresh', {}));
      }
      if (day === 4) {
        plantedDay = formatIstDate(first + 3 * DAY_MS);
        expect((await admin('PUT', '/faults', { rent_error_paise: PLANTED_PAISE })).status).toBe(200);
      }
      if (day === 8) {
        // The app deletes the day-3 files: its index sees them go at once, on the service's clock.
        const before = await indexCount();
        const job = await value<{ id: number }>(
          app.call('files.bulkDelete.start', { filter: { bucket: 'media' }, except: [] }),
        );
        expect(job.id).toBeGreaterThan(0);
        await until(
          'the index to lose the 100 deleted files',
          async () => {
            return (await indexCount()) === before - 100;
          },
          90_000,
        );
      }
      if (day === 12 || day === 21) {
        const amount = TOP_UPS[day === 12 ? 0 : 1]!;
        expect((await app.call('sandbox.wallet', { topUpPaise: amount })).ok).toBe(true);
        expect((await app.call('account.get', { refresh: true })).ok).toBe(true);
      }
      if (day === 13) {
        // One upload sent by the app itself (the wallet is above the upload floor again).
        const path = join(root, 'report.pdf');
        const bytes = randomBytes(40 * MIB);
        writeFileSync(path, bytes);
        const before = await indexCount();
        const up = await app.context.session.live!.client.uploadFile({
          path,
          size: bytes.length,
          name: 'report.pdf',
          md5: createHash('md5').update(readFileSync(path)).digest('hex'),
        });
        expect(up.ok).toBe(true);
        await until('the index to hold the upload', async () => (await indexCount()) === before + 1);
      }
    }
    // Noon of the next month's first day: the month's last day is charged.
    await advanceTo(first + days * DAY_MS);
    // The daily check told the planted day before anyone opened the statement.
    await until('the flagged day told', () => flagged().length === 1);
    statement = await value<Statement>(app.call('statement.get', { month }));
    usage = (await value<{ value: UsageSnapshot[] }>(app.call('usage.get', { days: 90 }))).value;
  }, 600_000);
  afterAll(async () => {
    await app?.close();
    if (!process.env.STATEMENT_LAB_DIR) rmSync(root, { recursive: true, force: true });
  });

  it("gives /usage's rent for every day, its own figure on every honest day, and flags the planted one", () => {
    const byDate = new Map(usage.map((u) => [u.usage_date, u]));
    expect(statement.complete).toBe(true);
    expect(statement.days.length).toBeGreaterThanOrEqual(28);
    for (const d of statement.days) {
      const u = byDate.get(d.date);
      expect(u, d.date).toBeDefined();
      expect(d.measured?.rentPaise, d.date).toBe(u!.rent_paise);
      expect(d.measured?.bytesUsed, d.date).toBe(u!.bytes_used);
      expect(d.own?.bytesUsed, d.date).toBe(u!.bytes_used);
      if (d.date === plantedDay) expect(d.expectedRentPaise).toBe(u!.rent_paise - PLANTED_PAISE);
      else expect(d.expectedRentPaise, d.date).toBe(u!.rent_paise);
    }
    expect(statement.flags.map((f) => [f.date, f.kind, f.differencePaise])).toEqual([
      [plantedDay, 'charge', PLANTED_PAISE],
    ]);
    expect(statement.days.some((d) => d.measured?.outcome === 'ARREARS')).toBe(true);
    expect(statement.arrearsBookedPaise).toBeGreaterThan(0);
    expect(statement.rule.rule).toEqual({ gb: 'binary', month: 'thirty', rounding: 'down' });
  });

  it('infers the two top-ups as credits and balances: opening + credits - rent = closing', () => {
    expect(statement.credits.map((c) => c.amountPaise)).toEqual(TOP_UPS);
    expect(statement.credits.every((c) => c.inferred && c.fromMs < c.toMs)).toBe(true);
    expect(statement.credits[0]!.arrearsPaidPaise).toBe(statement.arrearsPaidPaise);
    expect(statement.arrearsPaidPaise).toBe(statement.arrearsBookedPaise);
    // The wallet held 2.50 rupees before the month; the previous month's last day is charged at the
    // midnight the month begins, so the opening is after it.
    const lastDayBefore = formatIstDate(parseIst(`${month}-01 00:00`)! - DAY_MS);
    expect(statement.openingPaise).toBe(250 - usage.find((u) => u.usage_date === lastDayBefore)!.rent_paise);
    expect(statement.rentPaise).toBe(statement.days.reduce((s, d) => s + (d.measured?.rentPaise ?? 0), 0));
    expect(statement.openingPaise! + statement.creditsPaise - statement.rentPaise).toBe(
      statement.closingPaise,
    );
    expect(statement.balances).toBe(true);
    expect(statement.unknowns).toEqual([]);
    // Every share adds up to the month's rent.
    const b = statement.breakdown;
    for (const list of [b.byBucket, b.byFolder, b.byType])
      expect(list.reduce((s, x) => s + x.rentPaise, 0)).toBe(statement.rentPaise);
    expect(b.byBucket.map((x) => x.label)).toEqual(['default', 'media', 'other files']);
    expect(b.byBucket.at(-1)!.rentPaise).toBe(b.otherPaise);
    expect(b.otherPaise).toBeGreaterThanOrEqual(0);
    expect(b.otherPaise).toBeLessThan(statement.days.length * 3);
  });

  it('tells the flagged day once, as a runway alert', async () => {
    expect(flagged()).toHaveLength(1);
    expect((await app.call('statement.get', { month, refresh: false })).ok).toBe(true);
    expect(flagged()).toHaveLength(1);
  });

  it('the CLI tells the same month: --json a line a day, --csv, and a PDF whose text has the figures', async () => {
    const dataDir = join(root, 'data');
    const json = await runCli(['statement', '--month', month, '--json', '--data-dir', dataDir]);
    expect(json.code, json.stderr).toBe(0);
    const days = json.lines.filter((l) => l.event === 'statement.day');
    expect(days.map((d) => [d.date, d.rent_paise, d.expected_rent_paise])).toEqual(
      statement.days.map((d) => [d.date, d.measured?.rentPaise, d.expectedRentPaise]),
    );
    const summary = json.lines.at(-1)!;
    expect(summary).toMatchObject({
      event: 'statement.summary',
      month,
      opening_paise: statement.openingPaise,
      closing_paise: statement.closingPaise,
      credits_paise: TOP_UPS[0]! + TOP_UPS[1]!,
      balances: true,
    });

    const csv = await runCli(['statement', '--month', month, '--csv', '--data-dir', dataDir]);
    expect(csv.code, csv.stderr).toBe(0);
    const rows = csv.stdout.trim().split('\r\n');
    expect(rows.filter((r) => r.startsWith('day,'))).toHaveLength(statement.days.length);
    expect(rows.filter((r) => r.startsWith('credit,')).map((r) => r.split(',')[10])).toEqual([
      '80.00',
      '30.00',
    ]);

    const pdf = join(root, 'statement.pdf');
    const made = await runCli(['statement', '--month', month, '--pdf', pdf, '--data-dir', dataDir]);
    expect(made.code, made.stderr).toBe(0);
    const text = execFileSync('pdftotext', ['-layout', pdf, '-'], { encoding: 'utf8' });
    expect(text).toContain(`Statement of account`);
    expect(text).toContain(`Month: ${month}`);
    expect(text).toContain('a GB is 2^30 bytes (binary)');
    expect(text).toContain(`${formatServiceDate(plantedDay)}: charged`);
    expect(text).toContain('Rs 80.00 between');
    expect(text).not.toContain('?');
    expect(text).toContain('Rs 30.00 between');
    expect(text).toMatch(
      /Opening \+ credits - rent = closing: Rs [\d,.]+ \+ Rs 110\.00 - Rs [\d,.]+ = Rs [\d,.]+\./,
    );
  });
});
