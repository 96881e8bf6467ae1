import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DeskProcess, killLeftDesks, newKeys, startDeskProcess } from '../office/desk-processes';
import { screens, ZOOMABLE } from './screens';
import { holdReplies, launchChromium, type Stack, startStack } from './stack';

// Issue 21 in Chromium: the app is a desk of the office; with another desk (a real `assets-sync sync`
// process) at the same sandbox address, the Folders header says so and Settings > Office lists both desks,
// and its switch, name, peer list and key are saved (the key in the keychain), a bad peer refused by name.
describe.sequential('the office in Chromium: the Folders header line and Settings > Office', () => {
  const work = mkdtempSync(join(tmpdir(), 'office-e2e-'));
  // The local-folder path only, in a folder of this test's own: no other test's desks join this office.
  const env = { ASSETS_SYNC_OFFICE_DISCOVERY: 'local', ASSETS_SYNC_OFFICE_DIR: join(work, 'office') };
  let stack: Stack;
  let browser: Browser;
  let page: Page;
  let other: DeskProcess | null = null;
  const nav = (label: string) =>
    page.getByRole('navigation').getByRole('button', { name: label, exact: true }).click();

  /**
   * On a second page whose core replies to office.update are held: the switch (on) clicked, shown off at
   * once while the reply waits; then `after` decides the reply. The held call did reach the core (only its
   * reply is held or replaced), so the switch is put back on afterwards.
   */
  const clickedWithReplyHeld = async (
    after: (box: Locator, updates: Awaited<ReturnType<typeof holdReplies>>) => Promise<void>,
  ) => {
    const slow = await browser.newPage(ZOOMABLE);
    const updates = await holdReplies(slow, ['office.update']);
    try {
      await slow.goto(stack.shell.url);
      await slow.getByRole('navigation').getByRole('button', { name: 'Settings', exact: true }).click();
      const box = slow.getByTestId('office-settings').getByTestId('office-enabled');
      expect(await box.isChecked()).toBe(true);
      await box.click();
      await expect.poll(() => updates.held()).toBe(1);
      expect(await box.isChecked()).toBe(false);
      await after(box, updates);
    } finally {
      await slow.close();
      await stack.app.call('office.update', { enabled: true });
    }
  };

  beforeAll(async () => {
    // The app's desk reads these when the app service starts (joinAsDesk).
    Object.assign(process.env, env);
    stack = await startStack({ office: true });
    browser = await launchChromium();
    page = await browser.newPage(ZOOMABLE);
    page.on('pageerror', (e) => console.error('page error:', e.message));
  });
  afterAll(async () => {
    await other?.stop();
    killLeftDesks();
    await browser?.close();
    await stack?.close();
    for (const k of Object.keys(env)) delete process.env[k];
    rmSync(work, { recursive: true, force: true });
  });

  it('the Folders header says how many desks share the address and this desk’s part', async () => {
    await page.goto(stack.shell.url);
    await page.getByRole('button', { name: 'Try the local sandbox' }).click();
    await page.getByRole('heading', { name: 'Folders', exact: true }).waitFor();
    // The app's first service client made its desk: alone at this address, the header says nothing yet.
    await expect.poll(async () => (await stack.app.call('office.status', {})).ok).toBe(true);
    await expect
      .poll(async () => {
        const s = await stack.app.call('office.status', {});
        return s.ok ? s.value?.mode : null;
      })
      .toBe('alone');
    expect(await page.getByTestId('office-line').count()).toBe(0);

    // Another desk at the same address: a long-running `assets-sync sync` with an account of its own.
    const live = stack.app.context.session.live;
    if (!live?.connection.adminToken) throw new Error('no sandbox is running');
    const [apiKey] = await newKeys(
      { baseUrl: live.connection.baseUrl, adminToken: live.connection.adminToken },
      1,
    );
    other = startDeskProcess({
      work,
      name: 'other',
      baseUrl: live.connection.baseUrl,
      apiKey: apiKey!,
      files: 2,
      env,
    });
    await other.sees(2);
    const line = page.getByTestId('office-line');
    await expect
      .poll(() => line.textContent(), { timeout: 30_000 })
      .toMatch(/^Sharing this address with 1 other desk: about \d+ requests? a minute for this desk$/);
    await screens(page, 'office-folders-line', line);
  });

  it('Settings > Office lists both desks, which holds the budget, and this desk’s sentence', async () => {
    await nav('Settings');
    const section = page.getByTestId('office-settings');
    await section.getByRole('heading', { name: 'Office' }).waitFor();
    await expect
      .poll(() => section.getByTestId('office-sentence').textContent())
      .toMatch(/^Sharing this address with 1 other desk: about \d+ requests? a minute for this desk\.$/);
    const rows = section.getByTestId('office-peers').locator('tbody tr');
    await expect.poll(() => rows.count()).toBe(2);
    const names = await rows.locator('td:first-child').allTextContents();
    expect(names.filter((n) => n.includes('(this desk)'))).toHaveLength(1);
    expect(names.filter((n) => n.includes('(holds the budget)'))).toHaveLength(1);
    expect(names.some((n) => n.includes('(sync)'))).toBe(true);
    // No join code: an open office, said as such.
    await expect
      .poll(() => section.getByTestId('office-trust').textContent())
      .toBe(
        'Open office: any device on this network can take part (give every desk a join code to close it).',
      );
    await screens(page, 'office-settings', section);
  });

  it('saves the switch, the name, the peer list and the key; a bad peer is refused with the entry named', async () => {
    const section = page.getByTestId('office-settings');
    const settings = async () => {
      const r = await stack.app.call('office.settings', {});
      return r.ok ? r.value : null;
    };
    await section.getByTestId('office-enabled').uncheck();
    await expect.poll(settings).toMatchObject({ enabled: false });
    await section.getByTestId('office-enabled').check();
    await expect.poll(settings).toMatchObject({ enabled: true });

    const name = section.getByLabel(/^Office name/);
    await name.fill('studio');
    await name.blur();
    await expect.poll(settings).toMatchObject({ name: 'studio' });

    const peers = section.getByLabel(/^Desks multicast does not reach/);
    await peers.fill('192.168.1.20:47913\nnot a peer');
    await peers.blur();
    await page.getByText('"not a peer" is not host:port (for example 192.168.1.20:47913).').first().waitFor();
    expect((await settings())?.peers).toEqual([]);
    await peers.fill('192.168.1.20:47913');
    await peers.blur();
    await expect.poll(settings).toMatchObject({ peers: ['192.168.1.20:47913'] });

    // The join code goes to the keychain; the settings only ever say that one is set, and the code is shown
    // on request (to give to the other desks).
    await section.getByLabel(/^Join code given by another desk/).fill('a shared secret');
    await section.getByRole('button', { name: 'Save the join code' }).click();
    await expect.poll(settings).toMatchObject({ hasKey: true });
    await section.getByText('Join code given by another desk (one is set; a new one replaces it)').waitFor();
    expect(JSON.stringify(await settings())).not.toContain('a shared secret');
    await section.getByRole('button', { name: 'Show the join code' }).click();
    await expect
      .poll(() => section.getByTestId('office-join-code').textContent())
      .toBe('Join code: a shared secret');
    await section.getByRole('button', { name: 'Make a new join code' }).click();
    await expect
      .poll(() => section.getByTestId('office-join-code').textContent())
      .toMatch(/^Join code: ([A-Z2-7]{4}-){7}[A-Z2-7]{4}$/);
    await screens(page, 'office-join-code', section);
    await section.getByRole('button', { name: 'Clear the join code (open office)' }).click();
    await expect.poll(settings).toMatchObject({ hasKey: false });
  });

  it('the switch shows a click at once, before the core replies; a refused change puts it back', async () => {
    // A busy machine: the core's answer to office.update takes its time. The box must not look as if it
    // ignored the click (CI once saw exactly that), and a refusal must not leave it showing a lie.
    await clickedWithReplyHeld(async (box, updates) => {
      updates.refuse('CONFIG-INVALID', 'The office settings could not be saved.');
      await expect.poll(() => box.isChecked()).toBe(true);
      await box.page().getByText('The office settings could not be saved.').first().waitFor();
    });
  });

  it('an accepted change whose value the core keeps otherwise shows the core’s value, not the click', async () => {
    const kept = await stack.app.call('office.settings', {});
    await clickedWithReplyHeld(async (box, updates) => {
      // Accepted, and the core still says on: the box follows the core within seconds.
      updates.answer(kept);
      await expect.poll(() => box.isChecked()).toBe(true);
    });
  });
});
