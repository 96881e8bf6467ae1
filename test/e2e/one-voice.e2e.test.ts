import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DAYS } from '../../src-shared/domain/bwlimit';
import { runCli } from '../cli/run-cli';
import { createClient, startTestServer } from '../support/reference-server';
import { screens, ZOOMABLE } from './screens';
import { launchChromium, type Stack, startStack } from './stack';

// Issue 31 through the headless shell in Chromium: a failed file waiting for its retry, then the
// schedule's pause. The folder card, the sidebar and the queue say the status model's words, and
// `assets-sync status` says the same; screenshots of each state (test-artifacts/screens).
describe.sequential('one voice in the browser and the CLI', () => {
  let service: Awaited<ReturnType<typeof startTestServer>>;
  let stack: Stack;
  let browser: Browser;
  let page: Page;
  let folder: string;
  const word = () => page.getByTestId('folder-word').first().textContent();
  const sidebar = () => page.getByTestId('sync-state').textContent();
  const queue = () => page.getByTestId('queue-summary').textContent();
  const cliWord = async () => {
    const r = await runCli(['status', '--json', '--data-dir', stack.dataDir]);
    expect(r.code, r.stderr).toBe(0);
    return {
      folder: r.lines.find((l) => l.event === 'folder')?.word as string,
      overall: r.lines.find((l) => l.event === 'overall')?.word as string,
    };
  };
  const hourNow = (offsetHours = 0) => {
    const d = new Date(Date.now() + offsetHours * 3_600_000);
    return `${DAYS[d.getDay()]}-${String(d.getHours()).padStart(2, '0')}:00`;
  };

  beforeAll(async () => {
    service = await startTestServer({ port: 0 });
    const client = await createClient(service.admin, { name: 'Voice Traders', wallet_paise: 100_000 });
    stack = await startStack({
      engine: { stabilityMs: 150, backoff: { baseMs: 3_600_000, capMs: 3_600_000, maxAttempts: 10 } },
    });
    browser = await launchChromium();
    page = await (await browser.newContext(ZOOMABLE)).newPage();
    const connected = await stack.app.call('session.connect', {
      baseUrl: service.baseUrl,
      apiKey: client.api_key,
    });
    expect(connected.ok, JSON.stringify(connected)).toBe(true);
    folder = join(stack.root, 'shop');
    mkdirSync(folder);
    writeFileSync(join(folder, 'logo.png'), randomBytes(2048));
    expect((await stack.app.call('sync.folders.add', { path: folder, bucket: 'voice' })).ok).toBe(true);
    await page.goto(stack.shell.url);
    await page.getByRole('heading', { name: 'Folders', exact: true }).waitFor();
  });

  afterAll(async () => {
    await browser?.close();
    await stack?.close();
    await service?.admin('PUT', '/faults', { storage_fail_rate: 0 });
    await service?.stop();
  });

  it('a failed file waiting for its retry: "Waiting to retry" on the card, the sidebar and the CLI', async () => {
    await expect.poll(word, { timeout: 20_000 }).toContain('In sync');
    expect((await service.admin('PUT', '/faults', { storage_fail_rate: 1 })).status).toBe(200);
    writeFileSync(join(folder, 'sale.png'), randomBytes(2048));
    await expect.poll(word, { timeout: 20_000 }).toContain('Waiting to retry');
    expect(await sidebar()).toContain('Waiting to retry');
    expect(await queue()).toBe('0 in progress · 1 waiting (1 to retry)');
    expect(await page.getByTestId('folder-pending').textContent()).toBe('1 waiting to retry');
    const cli = await cliWord();
    expect(cli.folder).toBe('Waiting to retry');
    expect(cli.overall).toBe('Waiting to retry');
    await screens(page, 'voice-retry');
  }, 120_000);

  it('held by the schedule: nothing says "Syncing"; the card, the sidebar, the queue and the CLI name the hold', async () => {
    const saved = await stack.app.call('settings.update', {
      bwSchedule: `${hourNow()},pause ${hourNow(1)},normal`,
    });
    expect(saved.ok, JSON.stringify(saved)).toBe(true);
    await expect.poll(word, { timeout: 20_000 }).toContain('Paused by the schedule');
    expect((await sidebar())?.trim()).toBe('Paused by the schedule');
    expect(await page.getByTestId('sync-state').getAttribute('title')).toMatch(
      /^1 file waiting until \d\d:\d\d IST$/,
    );
    expect(await queue()).toBe('1 waiting (paused by the schedule)');
    expect(await page.getByTestId('folder-pending').textContent()).toMatch(
      /^1 waiting: paused by the schedule until \d\d:\d\d IST$/,
    );
    // The time left counts the pause (time-left.ts, issue 31): the schedule's, or the failed file's own
    // retry when that comes after the pause ends; never a few seconds.
    await expect
      .poll(() => page.getByTestId('eta-bound').textContent(), { timeout: 20_000 })
      .toMatch(/ (min|h) .* left \((bound by the schedule|until the next retry)\)$/);
    const cli = await cliWord();
    expect(cli.folder).toBe('Paused by the schedule');
    expect((await sidebar())?.trim()).toBe(cli.overall);
    await screens(page, 'voice-schedule');
  }, 120_000);
});
