import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { osKeychain } from '../../src-main/core/secrets/keychain';
import { filesUnder } from '../support/files-under';
import { createClient, startTestServer } from '../support/reference-server';
import { audit } from './a11y';
import { launchChromium, SCREENSHOTS, type Stack, startStack } from './stack';

// "Connect an account" on first run: the key is checked with /me before anything is kept, and then
// lives in the keychain only.
describe.sequential('connecting an account in Chromium', () => {
  let service: Awaited<ReturnType<typeof startTestServer>>;
  let client: Awaited<ReturnType<typeof createClient>>;
  let stack: Stack;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    service = await startTestServer({ port: 0 });
    client = await createClient(service.admin, {
      name: 'Acme Traders',
      wallet_paise: 250_000,
      default_bucket: 'acme',
    });
    stack = await startStack();
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1280, height: 820 } });
  });

  afterAll(async () => {
    await browser?.close();
    await stack?.close();
    await service?.stop();
  });

  it('a wrong key is refused with the service’s reason, and nothing is kept', async () => {
    await page.goto(stack.shell.url);
    await page.getByRole('heading', { name: 'Welcome to Assets Sync' }).waitFor();
    await page.getByLabel('Service address').fill(service.baseUrl);
    await page.getByLabel('API key').fill('ask_not-a-real-key');
    await page.getByRole('button', { name: 'Connect' }).click();
    await page.getByRole('alert').filter({ hasText: /key/i }).waitFor();
    await page.screenshot({ path: join(SCREENSHOTS, 'connect-refused.png'), fullPage: true });
    await audit(page, 'connect-refused');
    expect(osKeychain().get(`api-key:${service.baseUrl}`)).toBeNull();
  });

  it('the right key connects; the account view shows that client, and the key is in the keychain only', async () => {
    await page.getByLabel('API key').fill(client.api_key);
    await page.getByRole('button', { name: 'Connect' }).click();
    await page.getByRole('heading', { name: 'Folders', exact: true }).waitFor();
    await page.getByRole('navigation').getByRole('button', { name: 'Account', exact: true }).click();
    await page.getByText('Acme Traders').first().waitFor();
    await page.getByText('₹2,500.00').first().waitFor();
    await page.screenshot({ path: join(SCREENSHOTS, 'connect-account.png'), fullPage: true });
    await audit(page, 'connect-account');

    expect(osKeychain().get(`api-key:${service.baseUrl}`)).toBe(client.api_key);
    const leaks = filesUnder(stack.dataDir).filter((f) => readFileSync(f).includes(client.api_key));
    expect(leaks).toEqual([]);
  });

  it('an http:// address that is not this computer asks before the key is sent unencrypted', async () => {
    expect((await stack.app.call('session.disconnect', {})).ok).toBe(true);
    await page.goto(stack.shell.url);
    await page.getByRole('heading', { name: 'Welcome to Assets Sync' }).waitFor();
    // 0.0.0.0 reaches this machine's listener on Linux, but by its name it is not loopback.
    const plain = service.baseUrl.replace('127.0.0.1', '0.0.0.0');
    await page.getByLabel('Service address').fill(plain);
    await page.getByLabel('API key').fill(client.api_key);
    await page.getByRole('button', { name: 'Connect' }).click();
    const ask = page.getByRole('alertdialog');
    await ask.getByText(/would send the API key unencrypted/).waitFor();
    await page.screenshot({ path: join(SCREENSHOTS, 'connect-plain-http.png'), fullPage: true });
    expect(osKeychain().get(`api-key:${plain}`)).toBeNull();
    await ask.getByRole('button', { name: 'Cancel' }).click();
    await page.getByRole('button', { name: 'Connect' }).click();
    await ask.getByRole('button', { name: 'Send the key unencrypted' }).click();
    await page.getByRole('heading', { name: 'Folders', exact: true }).waitFor();
    expect(osKeychain().get(`api-key:${plain}`)).toBe(client.api_key);
    await stack.app.call('session.disconnect', {});
  });
});
