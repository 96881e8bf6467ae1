import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type AppService, createAppService } from '../../src-main/core/app/app-service';
import { startHeadlessShell } from '../../src-main/headless/server';
import { memorySecrets } from '../support/secrets';
import { screens, ZOOMABLE } from './screens';
import { launchChromium, SCREENSHOTS } from './stack';

/**
 * The leads in the app's one word (issue 31), in real Chromium on the headless shell: a desk whose
 * relay does not answer says so in the sidebar, as the Leads view's header and its State row do, in
 * the status model's words; screenshots in four looks, audited.
 */
describe.sequential('a relay that does not answer, said by the sidebar and the Leads header', () => {
  const root = mkdtempSync(join(tmpdir(), 'leads-voice-e2e-'));
  let app: AppService;
  let shell: Awaited<ReturnType<typeof startHeadlessShell>>;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    mkdirSync(SCREENSHOTS, { recursive: true });
    app = await createAppService({
      dataDir: join(root, 'data'),
      secrets: memorySecrets(),
      // Nothing listens on the discard port: every pull fails, and leads would wait at the relay.
      env: { ASSETS_RELAY_URL: 'http://127.0.0.1:9', ASSETS_RELAY_TOKEN: 'rlt_test' },
      log: () => {},
    });
    shell = await startHeadlessShell({
      core: app,
      rendererDir: inject('rendererDir'),
      dropDir: join(root, 'in'),
    });
    browser = await launchChromium();
    page = await (await browser.newContext(ZOOMABLE)).newPage();
  });
  afterAll(async () => {
    await browser?.close();
    await shell?.close();
    await app?.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('the sidebar, the Leads header and its State row say "Lead relay unreachable"', async () => {
    await page.goto(shell.url);
    await page.getByRole('button', { name: 'Try the local sandbox' }).click();
    await page.getByRole('heading', { name: 'Folders', exact: true }).waitFor();
    await expect.poll(() => page.getByTestId('sync-state').textContent()).toContain('Lead relay unreachable');
    await page.getByRole('navigation').getByRole('button', { name: 'Leads', exact: true }).click();
    await page.getByTestId('relay-state').waitFor();
    const header = page.getByTestId('leads-state');
    await expect.poll(() => header.textContent()).toContain('Lead relay unreachable');
    expect(await header.getAttribute('title')).toMatch(/could not be reached .*Leads wait at the relay/);
    expect(await page.getByTestId('relay-connected').textContent()).toMatch(/^Unreachable/);
    expect(await page.getByTestId('sync-state').getAttribute('title')).toBe(
      await header.getAttribute('title'),
    );
    await screens(page, 'leads-relay-unreachable', header);
  });
});
