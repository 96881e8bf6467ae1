import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { botTokenAccount } from '../../src-main/core/kb/bots';
import type { RunningServer } from '../../src-main/reference-server/server';
import type { KbBotView } from '../../src-shared/contract/kb';
import { api, makeBot, startServer } from '../kb/helpers';
import { filesUnder } from '../support/files-under';
import { createClient, startTestServer } from '../support/reference-server';
import { screens, ZOOMABLE } from './screens';
import { browserApp, holdReplies } from './stack';

type Remote = { id: number; title: string; description: string };

/**
 * Knowledge entries and bots in Chromium against a real core: a delete that can be undone, both
 * field errors at once, a merge that can be cancelled, a bot renamed, moved, given a new token and
 * removed (saying what is lost), and the sandbox's demo bot leaving with the sandbox.
 */
describe.sequential('knowledge entries and bots in Chromium', () => {
  const f = browserApp('kb-bots-e2e-');
  let page: Page;
  let shop: RunningServer;
  let shopToken: string;

  const nav = (label: string) => f.nav(page, label);
  const entry = (title: string) => page.locator(`[data-entry-title="${title}"]`);
  const bots = async () =>
    ((await f.app.call('kb.bots', {})) as { ok: true; value: { bots: KbBotView[] } }).value.bots;
  const undoBar = () => page.getByRole('status').filter({ hasText: 'Deleted “' });
  const syncNow = () => page.getByRole('button', { name: 'Sync now' }).click();
  /** A second page on Knowledge whose core replies to `calls` are held (holdReplies), closed after `body`. */
  const withSlowPage = async (
    calls: string[],
    body: (slow: Page, held: Awaited<ReturnType<typeof holdReplies>>) => Promise<void>,
  ) => {
    const slow = await f.browser.newPage(ZOOMABLE);
    const held = await holdReplies(slow, calls);
    try {
      await slow.goto(f.shell.url);
      await slow.getByRole('navigation').getByRole('button', { name: 'Knowledge', exact: true }).click();
      await body(slow, held);
    } finally {
      await slow.close();
    }
  };
  /**
   * Waits for the server's acknowledgement of each entry (its badge turns Synced). "All changes
   * synced" is no such event: it is already on screen before a new entry's pending state reaches the
   * page, so waiting for it let a check of the server run before the create was sent (1 run in 4).
   */
  const synced = async (...titles: string[]) => {
    for (const title of titles)
      await entry(title).locator('[data-state="synced"]').waitFor({ timeout: 15_000 });
  };

  beforeAll(async () => {
    shop = await startServer(join(f.root, 'shop'));
    shopToken = (await makeBot(shop)).token;
    page = await f.browser.newPage(ZOOMABLE);
  });

  afterAll(async () => {
    await shop?.close();
  });

  it('a deleted entry can be undone before anything is sent; left alone, the delete goes', async () => {
    await page.goto(f.shell.url);
    await page.getByRole('button', { name: 'Try the local sandbox' }).click();
    await page.getByRole('heading', { name: 'Folders', exact: true }).waitFor();
    await nav('Knowledge');
    await page.getByText('Demo bot', { exact: true }).waitFor();
    for (const [title, description] of [
      ['Returns', 'Within 30 days, with the receipt.'],
      ['Opening hours', 'Monday to Saturday, 9 to 6.'],
    ]) {
      await page.getByRole('button', { name: 'New', exact: true }).click();
      await page.getByLabel('Title').fill(title!);
      await page.getByLabel('Description').fill(description!);
      await page.getByRole('button', { name: 'Add entry' }).click();
    }
    await synced('Returns', 'Opening hours');
    const demo = (await bots()).find((b) => b.isSandbox)!;
    const sandboxUrl = f.app.context.session.live!.connection.baseUrl;
    const onServer = async () =>
      ((await api(sandboxUrl, f.keychain.get(botTokenAccount(demo.id)), 'GET')).json.entries as Remote[]).map(
        (e) => e.title,
      );
    expect(await onServer()).toEqual(['Returns', 'Opening hours']);

    await entry('Returns').click();
    await page.getByRole('button', { name: 'Delete' }).click();
    await undoBar().waitFor();
    await undoBar().getByRole('button', { name: 'Undo' }).click();
    await expect.poll(() => undoBar().count()).toBe(0);
    await expect
      .poll(() => entry('Returns').locator('[data-state]').getAttribute('data-state'))
      .toBe('synced');
    await syncNow();
    await page.getByText('All changes synced').waitFor({ timeout: 15_000 });
    expect(await onServer()).toEqual(['Returns', 'Opening hours']);

    // Deleted again and left alone: once the window ends the delete is sent and the entry goes.
    await entry('Returns').click();
    await page.getByRole('button', { name: 'Delete' }).click();
    await undoBar().waitFor();
    await screens(page, 'kb-undo', undoBar());
    await expect.poll(() => entry('Returns').count(), { timeout: 20_000 }).toBe(0);
    await expect.poll(onServer, { timeout: 10_000 }).toEqual(['Opening hours']);
    expect(await undoBar().count()).toBe(0);
    // Four looks, each audited by axe (issue 23): more than the default minute on a busy machine.
  }, 120_000);

  it('a title and a description both too long: both errors are shown at once', async () => {
    await page.getByRole('button', { name: 'New', exact: true }).click();
    await page.getByLabel('Title').fill('t'.repeat(161));
    await page.getByLabel('Description').fill('d'.repeat(2001));
    const form = page.getByRole('form', { name: 'New entry' });
    await form
      .locator('[data-field-error="title"]')
      .filter({ hasText: 'The title has 161 characters' })
      .waitFor();
    await form
      .locator('[data-field-error="description"]')
      .filter({ hasText: 'The description has 2001 characters; the limit is 2000.' })
      .waitFor();
    expect(await page.getByLabel('Title').getAttribute('aria-invalid')).toBe('true');
    expect(await page.getByLabel('Description').getAttribute('aria-invalid')).toBe('true');
    expect(await page.getByRole('button', { name: 'Add entry' }).isDisabled()).toBe(true);
    await screens(page, 'kb-field-errors', form);
    await page.getByLabel('Title').fill('Short');
    await expect.poll(() => form.locator('[data-field-error]').count()).toBe(1);
    await entry('Opening hours').click();
  });

  it('a new draft opened while the previous add is still on its way stays the draft', async () => {
    // The core's reply to kb.create held back (a busy machine, a slow disk) until the person has
    // opened a new draft and typed into it: the late reply must not swap the editor to the entry it made.
    await withSlowPage(['kb.create'], async (slow, creates) => {
      await slow.getByText('Demo bot', { exact: true }).waitFor();
      await slow.getByRole('button', { name: 'New', exact: true }).click();
      await slow.getByLabel('Title').fill('Delivery');
      await slow.getByLabel('Description').fill('Two working days.');
      await slow.getByRole('button', { name: 'Add entry' }).click();
      await expect.poll(() => creates.held()).toBe(1);
      await slow.getByRole('button', { name: 'New', exact: true }).click();
      await slow.getByLabel('Title').fill('Gift wrap');
      creates.release();
      // The first entry is made and listed; the open draft is still the second, with what was typed.
      await slow.locator('[data-entry-title="Delivery"]').waitFor();
      await slow.getByRole('button', { name: 'Add entry' }).waitFor();
      expect(await slow.getByLabel('Title').inputValue()).toBe('Gift wrap');
      expect(await slow.getByLabel('Description').inputValue()).toBe('');
    });
  });

  it('saved by keyboard with the reply later than the list: focus goes to the heading, not the page start', async () => {
    // The change event (the list shows the new text, "Save" disabled) before kb.edit's reply: the save
    // found focus already lost and nothing took it (the a11y test met it 1 run in 10).
    await withSlowPage(['kb.edit'], async (slow, edits) => {
      await slow.locator('[data-entry-title="Delivery"]').click();
      await slow.getByLabel('Description').fill('Two or three working days.');
      await slow.getByRole('button', { name: 'Save', exact: true }).focus();
      await slow.keyboard.press('Enter');
      await expect.poll(() => edits.held()).toBe(1);
      await expect
        .poll(() => slow.getByRole('button', { name: 'Save', exact: true }).isDisabled())
        .toBe(true);
      edits.release();
      await expect
        .poll(() => slow.evaluate(() => document.activeElement?.textContent?.trim() ?? null))
        .toBe('Edit entry');
    });
  });

  it('the merge editor of a conflict has a Cancel that leaves both versions as they are', async () => {
    await page.getByRole('button', { name: 'Add bot' }).click();
    await page.getByLabel('Name').fill('Shop bot');
    await page.getByLabel('Service address').fill(shop.baseUrl);
    await page.getByLabel('API token (KB API card)').fill(shopToken);
    await page.getByRole('button', { name: 'Add bot', exact: true }).last().click();
    await page.getByText(shop.baseUrl).waitFor();
    await page.getByRole('button', { name: 'New', exact: true }).click();
    await page.getByLabel('Title').fill('Delivery');
    await page.getByLabel('Description').fill('Free over 500 rupees.');
    await page.getByRole('button', { name: 'Add entry' }).click();
    await synced('Delivery');
    const remote = ((await api(shop.baseUrl, shopToken, 'GET')).json.entries as Remote[])[0]!;
    expect(
      (await api(shop.baseUrl, shopToken, 'PUT', `/${remote.id}`, { description: 'Free over 300 (CRM).' }))
        .status,
    ).toBe(200);
    await entry('Delivery').click();
    await page.getByLabel('Description').fill('Free over 450 rupees.');
    await page.getByRole('button', { name: 'Save' }).click();
    await syncNow();
    await page.getByText('1 to resolve').waitFor({ timeout: 15_000 });
    await entry('Delivery').click();
    await page.getByText('Changed in two places.').waitFor();

    await page.getByRole('button', { name: 'Edit a merge' }).click();
    const merge = page.getByRole('form', { name: 'Merge' });
    await merge.waitFor();
    await merge.getByLabel('Description').fill('A merge I change my mind about');
    await screens(page, 'kb-merge', merge);
    await merge.getByRole('button', { name: 'Cancel' }).click();
    await expect.poll(() => merge.count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Edit a merge' }).isEnabled()).toBe(true);
    await page.getByText('Changed in two places.').waitFor();
    // Nothing was resolved: the server still has its text, and the editor can still choose.
    expect(((await api(shop.baseUrl, shopToken, 'GET')).json.entries as Remote[])[0]!.description).toBe(
      'Free over 300 (CRM).',
    );
    await page.getByRole('button', { name: 'Edit a merge' }).click();
    expect(await merge.getByLabel('Description').inputValue()).toContain('Free over 300 (CRM).');
    await page.getByRole('button', { name: 'Keep mine' }).click();
    await syncNow();
    await page.getByText('All changes synced').waitFor({ timeout: 15_000 });
  });

  it('a bot is renamed, moved to a new address with a new token (keychain only), and syncs there', async () => {
    const moved = await startServer(join(f.root, 'moved'));
    const movedToken = (await makeBot(moved)).token;
    try {
      await page.getByRole('button', { name: 'Bot settings' }).click();
      const form = page.getByRole('form', { name: 'Bot settings' });
      await form.getByLabel('Name').fill('Store bot');
      await form.getByLabel('Service address').fill(moved.baseUrl);
      await form.getByLabel(/New API token/).fill(movedToken);
      await screens(page, 'kb-bot-settings', form);
      await form.getByRole('button', { name: 'Save' }).click();
      await expect.poll(() => form.count()).toBe(0);
      await page.getByText(moved.baseUrl).waitFor();
      await page.getByRole('combobox', { name: 'Bot' }).getByRole('option', { name: 'Store bot' }).waitFor({
        state: 'attached',
      });
      const store = (await bots()).find((b) => b.name === 'Store bot')!;
      expect(store.baseUrl).toBe(moved.baseUrl);
      expect(f.keychain.get(botTokenAccount(store.id))).toBe(movedToken);
      expect(filesUnder(join(f.root, 'data')).filter((f) => readFileSync(f).includes(movedToken))).toEqual(
        [],
      );

      // The new address is the truth now: an entry made here lands there.
      await page.getByRole('button', { name: 'New', exact: true }).click();
      await page.getByLabel('Title').fill('Payment');
      await page.getByLabel('Description').fill('UPI and cards.');
      await page.getByRole('button', { name: 'Add entry' }).click();
      await synced('Payment');
      expect(
        ((await api(moved.baseUrl, movedToken, 'GET')).json.entries as Remote[]).map((e) => e.title),
      ).toEqual(['Payment']);
    } finally {
      await moved.close();
    }
  });

  it('removing a bot first says what is pending (3 edits), then removes it with its token', async () => {
    // The bot's server is gone (closed above): three edits wait in the outbox.
    for (const title of ['Sizes', 'Colours', 'Gift wrap']) {
      await page.getByRole('button', { name: 'New', exact: true }).click();
      await page.getByLabel('Title').fill(title);
      await page.getByRole('button', { name: 'Add entry' }).click();
      await entry(title).waitFor();
    }
    await page.getByText('3 waiting to sync').waitFor();
    const store = (await bots()).find((b) => b.name === 'Store bot')!;
    await page.getByRole('button', { name: 'Bot settings' }).click();
    await page.getByRole('button', { name: 'Remove bot…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Remove “Store bot”?' });
    await dialog.waitFor();
    expect(await dialog.getByTestId('remove-bot-pending').textContent()).toBe(
      '3 edits not yet sent will be lost.',
    );
    expect(await dialog.textContent()).toContain('Its leads stay in the inbox.');
    await screens(page, 'kb-remove-bot', dialog);
    await dialog.getByRole('button', { name: 'Remove bot' }).click();
    await page.getByText('“Store bot” was removed from this app.').waitFor();
    await expect.poll(async () => (await bots()).map((b) => b.name)).toEqual(['Demo bot']);
    await page.getByText('Demo bot', { exact: true }).waitFor();
    expect(f.keychain.get(botTokenAccount(store.id))).toBeNull();
  });

  it('after leaving the sandbox for a real account, the demo bot and the Sandbox panel are gone', async () => {
    const account = await startTestServer({ port: 0 });
    try {
      const client = await createClient(account.admin, { name: 'Acme Traders' });
      await nav('Settings');
      await page.getByRole('button', { name: 'Leave the sandbox' }).click();
      await page
        .getByRole('dialog', { name: 'Disconnect?' })
        .getByRole('button', { name: 'Disconnect' })
        .click();
      await page.getByRole('heading', { name: 'Welcome to Assets Sync' }).waitFor();
      await page.getByLabel('Service address').fill(account.baseUrl);
      await page.getByLabel('API key').fill(client.api_key);
      await page.getByRole('button', { name: 'Connect' }).click();
      await page.getByRole('heading', { name: 'Folders', exact: true }).waitFor();
      expect(await page.getByRole('navigation').getByRole('button', { name: 'Sandbox' }).count()).toBe(0);
      await nav('Knowledge');
      await page.getByText('No bot yet.').waitFor();
      expect(await bots()).toEqual([]);
      const refused = await f.app.call('sandbox.wallet', { drain: true });
      expect(!refused.ok && refused.error.code).toBe('NOT-SANDBOX');
      await screens(page, 'kb-after-sandbox');
    } finally {
      await account.stop();
    }
  });
});
