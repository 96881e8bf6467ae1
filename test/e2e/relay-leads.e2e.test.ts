import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type AppService, createAppService } from '../../src-main/core/app/app-service';
import { startHeadlessShell } from '../../src-main/headless/server';
import { type RunningRelay, startRelay } from '../../src-main/relay/relay-server';
import { testKeychain } from '../kb/helpers';
import { deliver, leadBody, signBody } from '../relay/helpers';
import { audit } from './a11y';
import { launchChromium, SCREENSHOTS } from './stack';

/**
 * The Leads view with a relay, in real Chromium on the headless shell: "Receive through a relay" by
 * pasting what the relay printed, then its state (connected, refused deliveries and why), a lead that
 * arrives through it, and "handled" by whom. The bot's signing secret comes from ASSETS_SIGNING_SECRET
 * (a desk with no bot set up).
 */
describe.sequential('receiving leads through a relay, in Chromium', () => {
  const root = mkdtempSync(join(tmpdir(), 'relay-e2e-ui-'));
  const keychain = testKeychain();
  const SECRET = 'whsec_the_team_bot';
  let relay: RunningRelay;
  let app: AppService;
  let shell: Awaited<ReturnType<typeof startHeadlessShell>>;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    const rendererDir = inject('rendererDir');
    mkdirSync(SCREENSHOTS, { recursive: true });
    relay = await startRelay({ dataDir: join(root, 'relay'), port: 0, log: () => {} });
    app = await createAppService({
      dataDir: join(root, 'data'),
      secrets: keychain,
      env: { ASSETS_SIGNING_SECRET: SECRET },
      log: () => {},
    });
    shell = await startHeadlessShell({ core: app, rendererDir, dropDir: join(root, 'incoming') });
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  });
  afterAll(async () => {
    await browser?.close();
    await shell?.close();
    await app?.close();
    await relay?.close();
    keychain.cleanup();
    rmSync(root, { recursive: true, force: true });
  });

  it('connects by pasting the ready line, shows a signed lead, names the refused one, and who handled it', async () => {
    await page.goto(shell.url);
    await page.getByRole('button', { name: 'Try the local sandbox' }).click();
    await page.getByRole('heading', { name: 'Folders', exact: true }).waitFor();
    await page.getByRole('navigation').getByRole('button', { name: 'Leads', exact: true }).click();
    await page.getByText('Source: this computer.').waitFor();
    await page.getByRole('button', { name: 'Receive through a relay' }).click();
    // A wrong token is said at once, and nothing is saved.
    await page.getByLabel('Relay address').fill(relay.url);
    await page.getByLabel('Read token').fill('rlt_wrong');
    await page.getByRole('button', { name: 'Connect' }).click();
    await page
      .getByRole('alert')
      .getByText(/refused the read token/)
      .waitFor();
    await page.getByLabel('Relay address').fill('');
    await page.getByLabel('Read token').fill('');
    const printed = JSON.stringify({
      event: 'ready',
      url: relay.url,
      webhook_url: relay.webhookUrl,
      token: relay.token,
    });
    await page.getByLabel('Paste what the relay printed when it started').fill(printed);
    await page.getByLabel('Your name on “handled” (optional)').fill('Asha');
    await page.getByRole('button', { name: 'Connect' }).click();
    await page.getByTestId('relay-state').waitFor();
    await expect.poll(() => page.getByTestId('relay-connected').textContent()).toBe('Connected');
    // On the sandbox, its demo bot now posts to the relay too (issue 31), and the view says so.
    await expect
      .poll(() => page.getByTestId('sandbox-bot-source').textContent())
      .toMatch(/demo bot posts to the relay/);

    const good = leadBody(7001, 7, 'Meera');
    expect(
      (await deliver(relay.webhookUrl, good, { 'x-service-signature': signBody(good, SECRET) })).status,
    ).toBe(200);
    const forged = leadBody(7002, 7, 'Mallory');
    expect(
      (await deliver(relay.webhookUrl, forged, { 'x-service-signature': signBody(forged, 'guess') })).status,
    ).toBe(200);
    await page.getByText('Meera', { exact: true }).waitFor({ timeout: 10_000 });
    await expect.poll(() => page.getByTestId('relay-rejected').textContent()).toMatch(/^1/);
    await page.getByRole('button', { name: 'Show why' }).click();
    await page
      .getByRole('list', { name: 'Refused deliveries' })
      .getByText(/conversation 7002 \(“Mallory”\).*matches no signing secret/)
      .waitFor();
    expect(await page.getByText('Mallory', { exact: true }).count()).toBe(0);

    const row = page.locator('tr[data-lead="7001"]');
    await row.getByRole('button', { name: 'Mark handled' }).click();
    await row.getByText('by Asha').waitFor();
    await page.screenshot({ path: join(SCREENSHOTS, 'leads-relay.png'), fullPage: true });
    await audit(page, 'leads-relay');

    await page.getByRole('button', { name: 'Stop using the relay' }).click();
    await page.getByText('Source: this computer.').waitFor();
  });
});
