import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../src-main/reference-server/server';
import type { KbBotView } from '../../src-shared/contract/kb';
import { api, makeBot, startServer } from '../kb/helpers';
import { audit } from './a11y';
import { browserApp, SCREENSHOTS } from './stack';

type Remote = { id: number; title: string; description: string };

/**
 * Knowledge entries and leads through the headless shell in real Chromium, against a real core:
 * the sandbox's demo bot (set up by itself, leads to the app's receiver), plus a bot of a separate
 * reference server that the test stops and starts again to take the network away.
 */
describe.sequential('knowledge entries and leads in Chromium', () => {
  const f = browserApp('kb-e2e-');
  let page: Page;
  let remote: RunningServer;
  let remotePort: number;
  let remoteToken: string;

  // Each picture is audited too (axe, WCAG 2.1 AA: a serious or critical finding fails).
  const shot = async (name: string) => {
    await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true });
    await audit(page, name);
  };
  const nav = (label: string) => f.nav(page, label);
  const entry = (title: string) => page.locator(`[data-entry-title="${title}"]`);
  const bots = async () =>
    ((await f.app.call('kb.bots', {})) as { ok: true; value: { bots: KbBotView[] } }).value.bots;
  const remoteEntries = async (): Promise<Remote[]> =>
    (await api(remote.baseUrl, remoteToken, 'GET')).json.entries;

  beforeAll(async () => {
    remote = await startServer(join(f.root, 'remote'));
    remotePort = Number(new URL(remote.baseUrl).port);
    remoteToken = (await makeBot(remote)).token;
    page = await f.browser.newPage({ viewport: { width: 1280, height: 860 } });
  });

  afterAll(async () => {
    await remote?.close();
  });

  it('in the sandbox, the demo bot is there by itself; entries added in the editor sync', async () => {
    await page.goto(f.shell.url);
    await page.getByRole('button', { name: 'Try the local sandbox' }).click();
    await page.getByRole('heading', { name: 'Folders', exact: true }).waitFor();
    await nav('Knowledge');
    await page.getByRole('heading', { name: 'Knowledge', exact: true }).waitFor();
    await page.getByText('Demo bot', { exact: true }).waitFor();

    await page.getByRole('button', { name: 'New', exact: true }).click();
    await page.getByLabel('Title').fill('Opening hours');
    await page.getByLabel('Description').fill('Monday to Saturday, 9 to 6.');
    await expect.poll(() => page.getByText('27 / 2000').count()).toBe(1);
    await page.getByRole('button', { name: 'Add entry' }).click();
    await page.getByRole('button', { name: 'New', exact: true }).click();
    await page.getByLabel('Title').fill('x'.repeat(161));
    await page.getByText('The title has 161 characters; the limit is 160.').waitFor();
    expect(await page.getByRole('button', { name: 'Add entry' }).isDisabled()).toBe(true);
    await page.getByLabel('Title').fill('Returns');
    await page.getByLabel('Description').fill('Within 30 days, with the receipt.');
    await page.getByRole('button', { name: 'Add entry' }).click();
    // Polled: the footer's words and the row's state are drawn by separate store updates, and a loaded
    // machine (the whole suite on two cores) may draw one before the other.
    await page.getByText('All changes synced').waitFor({ timeout: 30_000 });
    await expect
      .poll(() => entry('Returns').locator('[data-state]').getAttribute('data-state'), { timeout: 15_000 })
      .toBe('synced');
    await page.getByRole('searchbox', { name: 'Search entries' }).fill('receipt');
    await expect.poll(() => page.locator('[data-entry-title]').count()).toBe(1);
    await shot('kb-entries');
    await page.getByRole('searchbox', { name: 'Search entries' }).fill('');
  });

  it('a lead raised through the sandbox admin surface arrives in the inbox', async () => {
    const demo = (await bots()).find((b) => b.isSandbox)!;
    const live = f.app.context.session.live!.connection;
    const raise = async (event: string, name: string) => {
      const res = await fetch(`${live.baseUrl}/__admin/v1/bots/${demo.remoteBotId}/events`, {
        method: 'POST',
        headers: { 'x-admin-token': live.adminToken!, 'content-type': 'application/json' },
        body: JSON.stringify({
          event,
          lead: { name, email: `${name.toLowerCase()}@example.com`, phone: '+91 98111 22222' },
        }),
      });
      expect(res.status).toBe(202);
    };
    await nav('Leads');
    await page.getByText('No leads yet').waitFor();
    await raise('LEAD-CAPTURED', 'Asha');
    await page.getByText('Asha', { exact: true }).waitFor({ timeout: 10_000 });
    await raise('HANDOFF-REQUESTED', 'Vikram');
    await page.getByText('Vikram', { exact: true }).waitFor({ timeout: 10_000 });
    const rows = page.locator('tbody tr');
    expect(await rows.first().textContent()).toContain('Vikram');
    expect(await rows.first().textContent()).toContain('Wants a person');
    await rows.nth(1).getByRole('button', { name: 'Mark handled' }).click();
    await rows.nth(1).getByRole('button', { name: 'Handled' }).waitFor();
    await page.getByRole('button', { name: 'Wants a person', exact: true }).click();
    await expect.poll(() => rows.count()).toBe(1);
    await page.getByRole('button', { name: 'All', exact: true }).click();
    await expect.poll(() => rows.count()).toBe(2);
    await shot('leads-inbox');
  });

  it('a bot of another server: edits made offline are kept and land when the server is back', async () => {
    await nav('Knowledge');
    await page.getByRole('button', { name: 'Add bot' }).click();
    await page.getByLabel('Name').fill('Shop bot');
    await page.getByLabel('Service address').fill(remote.baseUrl);
    await page.getByLabel('API token (KB API card)').fill(remoteToken);
    await page.getByRole('button', { name: 'Add bot', exact: true }).last().click();
    await page.getByText(remote.baseUrl).waitFor();
    await page.getByRole('button', { name: 'New', exact: true }).click();
    await page.getByLabel('Title').fill('Delivery');
    await page.getByLabel('Description').fill('Free over 500 rupees.');
    await page.getByRole('button', { name: 'Add entry' }).click();
    await page.getByText('All changes synced').waitFor({ timeout: 15_000 });

    await remote.close(); // the network goes away
    await entry('Delivery').click();
    await page.getByLabel('Description').fill('Free over 400 rupees.');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('button', { name: 'New', exact: true }).click();
    await page.getByLabel('Title').fill('Payment');
    await page.getByLabel('Description').fill('UPI and cards.');
    await page.getByRole('button', { name: 'Add entry' }).click();
    await page.getByRole('button', { name: 'Sync now' }).click();
    await page.locator('[data-sync="offline"]').waitFor({ timeout: 15_000 });
    await page.getByText('2 waiting to sync').waitFor();
    await shot('kb-offline');

    remote = await startServer(join(f.root, 'remote'), remotePort); // and comes back
    await page.getByRole('button', { name: 'Sync now' }).click();
    await page.getByText('All changes synced').waitFor({ timeout: 15_000 });
    expect((await remoteEntries()).map((e) => [e.title, e.description])).toEqual([
      ['Delivery', 'Free over 400 rupees.'],
      ['Payment', 'UPI and cards.'],
    ]);
  });

  it('an entry changed behind the app’s back and edited here shows a conflict; keep mine wins', async () => {
    const delivery = (await remoteEntries()).find((e) => e.title === 'Delivery')!;
    expect(
      (
        await api(remote.baseUrl, remoteToken, 'PUT', `/${delivery.id}`, {
          description: 'Free over 300 (CRM).',
        })
      ).status,
    ).toBe(200);
    await entry('Delivery').click();
    await page.getByLabel('Description').fill('Free over 450 rupees.');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('button', { name: 'Sync now' }).click();
    await page.getByText('1 to resolve').waitFor({ timeout: 15_000 });
    await entry('Delivery').click();
    await page.getByText('Changed in two places.').waitFor();
    await page.getByText('Free over 300 (CRM).').waitFor();
    await shot('kb-conflict');
    await page.getByRole('button', { name: 'Keep mine' }).click();
    await page.getByRole('button', { name: 'Sync now' }).click();
    await page.getByText('All changes synced').waitFor({ timeout: 15_000 });
    expect((await remoteEntries()).find((e) => e.title === 'Delivery')!.description).toBe(
      'Free over 450 rupees.',
    );
    await shot('kb-resolved');
  });
});
