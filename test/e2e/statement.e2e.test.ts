import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { DAY_MS, formatIstDate, parseIst } from '../../src-shared/domain/ist-time';
import { formatServiceDate } from '../../src-shared/domain/time-format';
import { screens, ZOOMABLE } from './screens';
import { browserApp, must } from './stack';

/**
 * The Statement view (issue 35) in Chromium on the app's sandbox: a month begun with 2 GiB stored,
 * one charge planted wrong and a top-up; the view shows the flagged day, the inferred credit and the
 * breakdown, and its buttons export the CSV and the PDF. Looked at in light, dark, 800x600 and 200%.
 */
describe.sequential('the Statement view', () => {
  const f = browserApp('statement-e2e-');
  let page: Page;
  let planted: string;

  beforeAll(async () => {
    page = await f.sandboxPage(ZOOMABLE);
    const clock = async () => parseIst(((await f.admin('GET', '/clock')) as { ist: string }).ist)!;
    const now = await clock();
    const [y, m] = formatIstDate(now).slice(0, 7).split('-').map(Number) as [number, number];
    const month = m === 12 ? `${y + 1}-01` : `${y}-${String(m + 1).padStart(2, '0')}`;
    const first = parseIst(`${month}-01 12:00`)!;
    const advanceTo = async (t: number) => {
      await f.admin('POST', '/clock/advance', { seconds: Math.round((t - (await clock())) / 1000) });
      await must(f.app.call('account.get', { refresh: true }));
    };
    await advanceTo(first - DAY_MS);
    await f.admin('POST', '/files/seed', { client_id: 1, count: 2048, bytes: 1024 * 1024 });
    await f.admin('POST', '/files/seed', {
      client_id: 1,
      count: 40,
      bytes: 1024 * 1024,
      bucket: 'media',
      extension: 'mp4',
    });
    await must(f.app.call('files.index.refresh', {}));
    await must(f.app.call('account.get', { refresh: true }));
    for (let day = 1; day <= 5; day++) {
      await advanceTo(first + (day - 1) * DAY_MS);
      if (day === 2) {
        planted = formatIstDate(first + DAY_MS);
        await f.admin('PUT', '/faults', { rent_error_paise: 5 });
      }
      if (day === 3) {
        await must(f.app.call('sandbox.wallet', { topUpPaise: 2_500 }));
        await must(f.app.call('account.get', { refresh: true }));
      }
    }
  }, 180_000);

  it('shows the month: the flagged day, the credit, the days and where the money goes', async () => {
    await f.nav(page, 'Statement');
    await page.getByRole('heading', { name: 'Statement', exact: true, level: 1 }).waitFor();
    const flags = page.getByTestId('statement-flags');
    await flags.getByText(`${formatServiceDate(planted)}: charged`).waitFor();
    await expect.poll(() => flags.getByRole('heading').first().textContent()).toBe('1 day flagged');
    await flags.getByText(/^₹25\.00 between/).waitFor();
    const row = page.getByTestId('statement-days').locator('tr[data-flagged="yes"]');
    await expect.poll(() => row.count()).toBe(1);
    await page
      .getByTestId('statement-rule')
      .getByText(/2\^30 bytes \(binary\)/)
      .waitFor();
    const totals = await page.getByTestId('statement-totals').textContent();
    expect(totals).toMatch(/Credits to the wallet \(inferred\)\+ ₹25\.00/);
    await page.getByRole('region', { name: 'Where the money goes' }).getByText('media').first().waitFor();
    await screens(page, 'statement', flags);
    await screens(page, 'statement-breakdown', page.getByRole('region', { name: 'Where the money goes' }));
  });

  it('exports the CSV and the PDF of the month', async () => {
    const [csv] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Export CSV' }).click(),
    ]);
    const csvText = readFileSync((await csv.path())!, 'utf8');
    expect(csvText.split('\r\n')[0]).toMatch(/^row,date,bytes_measured,/);
    expect(csvText).toMatch(/\r\ncredit,[^,]+,,,inferred,,,,,,25\.00,2500,/);
    const [pdf] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Export PDF' }).click(),
    ]);
    expect(pdf.suggestedFilename()).toMatch(/^statement-\d{4}-\d{2}\.pdf$/);
    const text = execFileSync('pdftotext', ['-layout', (await pdf.path())!, '-'], { encoding: 'utf8' });
    expect(text).toContain('Statement of account');
    expect(text).toContain(`${formatServiceDate(planted)}: charged`);
  });
});
