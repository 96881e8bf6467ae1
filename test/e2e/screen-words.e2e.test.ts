import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { untilEvent } from '../support/wait';
import { lineCount } from './layout';
import { ZOOMABLE } from './screens';
import { browserApp, must } from './stack';

/**
 * What the screenshot tour (`npm run screens`) showed people that they should not have to decode
 * (issue 23): a service code before a sentence, a log level or a folder mode's key, a status in
 * capitals, and dates in a second format beside the one IST format ("28 Nov 2026, 09:45 IST").
 */
const TIME = /^\d{1,2} [A-Z][a-z]{2} \d{4}, \d{2}:\d{2}$/;
const DATE = /^\d{1,2} [A-Z][a-z]{2} \d{4}$/;
/** A code as the service writes it: capitals, maybe joined by dashes ("EXTENSION-NOT-ALLOWED", "FREE"). */
const CODE = /\b[A-Z]{3,}(?:-[A-Z]+)*\b/;

describe.sequential('words on screen: no codes, one date format', () => {
  const f = browserApp('screen-words-e2e-');
  let page: Page;

  beforeAll(async () => {
    page = await f.sandboxPage(ZOOMABLE);
    // Two files the service takes and one it refuses by its extension (skipped by the local checks).
    const dir = join(f.root, 'site');
    mkdirSync(dir);
    for (const n of ['a.txt', 'b.txt', 'setup.exe']) writeFileSync(join(dir, n), `${n}\n`);
    await must(f.app.call('sync.folders.add', { path: dir, bucket: 'site' }));
    await untilEvent(f.app, 'the folder in sync', async () => {
      const c = (await must(f.app.call('sync.overview', {}))).folders[0]?.counts;
      return c?.live === 2 && c.pending === 0 && c.skipped === 1;
    });
    // Two days measured for the Usage table.
    await must(f.app.call('sandbox.advanceClock', { days: 2 }));
  });

  it('Folders: a file not uploaded says why in words; the code is only in its tooltip', async () => {
    const reason = page.getByTestId('problem-reason');
    await expect.poll(() => reason.count()).toBe(1);
    const text = (await reason.textContent())!.trim();
    // It read "EXTENSION-NOT-ALLOWED The extension ".exe" is not on the service's allow-list."
    expect(text).toBe('The extension ".exe" is not on the service\'s allow-list.');
    expect(text).not.toMatch(CODE);
    expect(await reason.getAttribute('title')).toContain('EXTENSION-NOT-ALLOWED');
  });

  it('Activity: a folder’s mode and each line’s level are words, not keys', async () => {
    await f.nav(page, 'Activity');
    const log = page.getByRole('table', { name: 'Activity log' });
    await expect.poll(() => log.textContent()).toContain('Syncing');
    const text = (await log.textContent())!;
    // "… to bucket site (upload-only)." beside the folder card's "upload only".
    expect(text).toContain('(upload only)');
    expect(text).not.toContain('upload-only');
    // The level badges said "info", "warn": the log's own keys.
    const levels = await log.locator('.badge').allTextContents();
    expect(levels.length).toBeGreaterThan(0);
    for (const l of levels) expect(['Info', 'Warning', 'Error']).toContain(l);
  });

  it('Files: the table and the preview write a file’s upload time in the one IST format', async () => {
    await f.nav(page, 'Files');
    const row = page.getByTestId('file-row').first();
    await row.waitFor();
    // At 1280 wide the table has its "Uploaded (IST)" column: "2026-11-28 09:45" before.
    const date = row.locator('.c-date');
    // Polled: the index may land a commit of the folder's files and the virtual rows be drawn anew between
    // two reads (CI once measured no line at all in a cell being replaced).
    await expect.poll(async () => (await date.textContent())?.trim()).toMatch(TIME);
    await expect.poll(() => lineCount(date)).toBe(1);
    await row.locator('.c-name').click();
    const meta = page.getByTestId('preview').locator('.meta .muted');
    // "5 B · site · 2026-11-28 09:45 IST" before.
    const when = (await meta.textContent())!.split(' · ').pop()!;
    expect(when).toMatch(/^\d{1,2} [A-Z][a-z]{2} \d{4}, \d{2}:\d{2} IST$/);
    await page.getByRole('button', { name: 'Close preview' }).click();
  });

  it('Usage: the table’s days are dates as the chart writes them, its outcomes words', async () => {
    await f.nav(page, 'Usage');
    const table = page.getByTestId('usage-table');
    await expect.poll(() => table.locator('tbody tr').count()).toBeGreaterThanOrEqual(2);
    // "2026-11-30" and "FREE" before, beside the chart's "30 Nov" and the header's "free".
    for (const d of await table.locator('tbody tr td:first-child').allTextContents())
      expect(d.trim()).toMatch(DATE);
    for (const o of await table.locator('tbody .badge').allTextContents()) expect(o).not.toMatch(CODE);
  });

  it('Leads: one name for a lead that wants a person, in the filter, the badge and the details', async () => {
    const bots = (await must(f.app.call('kb.bots', {}))).bots;
    const demo = bots.find((b) => b.isSandbox)!;
    // A lead whose visitor asked for a person (badged "Wants a person") and a plain one; the filter
    // said "Handoffs" and, by the service's event alone, left the first out of it.
    for (const [name, asked] of [
      ['Meera', true],
      ['Asha', false],
    ] as const)
      await f.admin('POST', `/bots/${demo.remoteBotId}/events`, {
        event: 'LEAD-CAPTURED',
        lead: { name, email: `${name.toLowerCase()}@example.com`, phone: '', asked_for_a_person: asked },
      });
    await must(f.app.call('sandbox.raiseLead', { event: 'HANDOFF-REQUESTED' }));
    await f.nav(page, 'Leads');
    const rows = page.locator('tbody tr');
    await expect.poll(() => rows.count()).toBe(3);
    const badged = page.locator('tbody .badge', { hasText: 'Wants a person' });
    expect(await badged.count()).toBe(2);
    const show = page.getByRole('group', { name: 'Show' });
    await show.getByRole('button', { name: 'Wants a person', exact: true }).click();
    await expect.poll(() => rows.count()).toBe(2);
    expect(await badged.count()).toBe(2);
    await show.getByRole('button', { name: 'Leads', exact: true }).click();
    await expect.poll(() => rows.count()).toBe(1);
    expect(await rows.first().textContent()).toContain('Asha');
    await show.getByRole('button', { name: 'All', exact: true }).click();
    await expect.poll(() => rows.count()).toBe(3);
    // The details' Event said "Asked for a person"; the service's code stays in its tooltip.
    await rows.first().locator('.lead-open').click();
    const dialog = page.getByRole('dialog');
    const event = dialog.locator('dt', { hasText: 'Event' }).locator('xpath=../dd/span');
    expect(await event.textContent()).toBe('Wants a person');
    expect(await event.getAttribute('title')).toBe('HANDOFF-REQUESTED');
    // Said once in the details (and by the badge), not also as "Wants a person: Yes".
    expect(await dialog.locator('dt').allTextContents()).not.toContain('Wants a person');
    await dialog.getByRole('button', { name: 'Close' }).click();
    expect(await page.getByText('Handoffs').count()).toBe(0);
  });

  // Issue 34: "Started 6 Dec" (the sandbox's clock) beside "Received 28 Nov" (this computer's); the
  // CSV's headers said the form of its times but not their clock, and its event_in_words said "Lead
  // captured" where the badge and the filter say "Lead" and "Leads".
  it('Leads: the CSV names each time’s clock as the details do, and a row’s kind as its badge and filter', async () => {
    await f.nav(page, 'Leads');
    const rows = page.locator('tbody tr');
    await expect.poll(() => rows.count()).toBeGreaterThan(1);
    await rows.first().locator('.lead-open').click();
    const dialog = page.getByRole('dialog');
    const labels = await dialog.locator('dt').allTextContents();
    await dialog.getByRole('button', { name: 'Close' }).click();
    /** "Started (the sandbox's clock)" -> started: "the sandbox's clock". */
    const screenClock = new Map<string, string>();
    for (const l of labels) {
      const m = /^(Started|Received|Handled) \((.+)\)$/.exec(l);
      if (m) screenClock.set(m[1]!.toLowerCase(), m[2]!);
    }
    expect([...screenClock.keys()].sort()).toEqual(['handled', 'received', 'started']);
    expect(screenClock.get('started')).toBe("the sandbox's clock");

    const csv = (await must(f.app.call('leads.exportCsv', {}))).csv.trim().split('\r\n');
    const header = csv[0]!.split(',');
    for (const [time, clock] of screenClock) {
      const column = header.find((h) => h.startsWith(`${time}_at `));
      expect(column, `${time}_at in ${csv[0]}`).toBe(`${time}_at (${clock}; ISO 8601 in IST +05:30)`);
    }

    // Each row's event_in_words is its badge on screen, and the filter of that word shows it.
    // event_in_words is the last column, name before any visitor-typed note (which may hold commas).
    expect(header.at(-1)).toBe('event_in_words');
    const name = header.indexOf('name');
    const show = page.getByRole('group', { name: 'Show' });
    const filters = await show.getByRole('button').allTextContents();
    for (const line of csv.slice(1)) {
      const cells = line.split(',');
      const kind = cells.at(-1)!;
      const row = rows.filter({ has: page.locator('.lead-open', { hasText: cells[name]! }) }).first();
      expect(await row.locator('.badge').first().textContent()).toBe(kind);
      expect(filters.some((f) => f === kind || f === `${kind}s`)).toBe(true);
    }
  });

  it('Account: the account’s status is a word, not the service’s code', async () => {
    await f.nav(page, 'Account');
    const status = page.locator('main .content > .row .badge').first();
    await status.waitFor();
    // "ACTIVE" before.
    expect(await status.textContent()).toBe('Active');
  });
});
