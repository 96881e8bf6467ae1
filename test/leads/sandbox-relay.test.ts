import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type AppService, createAppService } from '../../src-main/core/app/app-service';
import { type RunningRelay, startRelay } from '../../src-main/relay/relay-server';
import { memorySecrets } from '../support/secrets';
import { untilEvent } from '../support/wait';

/**
 * The sandbox tells the truth about leads (issue 31): with a relay connected while on the sandbox, the
 * sandbox's demo bot posts to the relay (the sandbox sets its own bot's webhook), and the lead reaches
 * the inbox through it; a relay given without its webhook URL leaves the demo bot on this computer,
 * and the Leads view is told so.
 */
describe("the sandbox's demo bot and a relay", () => {
  let root: string;
  let relay: RunningRelay;
  let app: AppService;
  afterEach(async () => {
    await app?.close();
    await relay?.close();
    rmSync(root, { recursive: true, force: true });
  });

  async function start() {
    root = mkdtempSync(join(tmpdir(), 'sandbox-relay-'));
    relay = await startRelay({ dataDir: join(root, 'relay'), port: 0, log: () => {} });
    app = await createAppService({
      dataDir: join(root, 'data'),
      secrets: memorySecrets(),
      env: {},
      log: () => {},
    });
    expect((await app.call('session.useSandbox', {})).ok).toBe(true);
    const demo = async () => {
      const bots = await app.call('kb.bots', {});
      return bots.ok ? (bots.value.bots.find((b) => b.isSandbox) ?? null) : null;
    };
    await untilEvent(app, 'the demo bot set up', async () => (await demo())?.remoteBotId != null);
    const raise = async (name: string) => {
      const c = app.context.session.live!.connection;
      const bot = (await demo())!;
      const r = await fetch(`${c.baseUrl}/__admin/v1/bots/${bot.remoteBotId}/events`, {
        method: 'POST',
        headers: { 'x-admin-token': c.adminToken!, 'content-type': 'application/json' },
        body: JSON.stringify({
          event: 'LEAD-CAPTURED',
          lead: { name, email: 'a@example.com', phone: '+91 98111 22222' },
        }),
      });
      expect(r.status).toBe(202);
    };
    const inInbox = (name: string) =>
      untilEvent(app, `${name} in the inbox`, async () => {
        const l = await app.call('leads.list', {});
        return l.ok && l.value.leads.some((x) => x.name === name);
      });
    return { raise, inInbox };
  }

  it("connected by its ready line, the relay receives the demo bot's lead and the inbox has it from there", {
    timeout: 60_000,
  }, async () => {
    const { raise, inInbox } = await start();
    const printed = JSON.stringify({
      event: 'ready',
      url: relay.url,
      webhook_url: relay.webhookUrl,
      token: relay.token,
    });
    const r = await app.call('leads.connectRelay', { printed });
    expect(r.ok && r.value).toMatchObject({ source: 'relay', sandboxBot: 'relay' });
    await raise('Meera');
    await inInbox('Meera');
    expect(relay.stored()).toBe(1);

    // Stop using the relay: the demo bot posts to this computer again, and the relay gets nothing more.
    const off = await app.call('leads.disconnectRelay', {});
    expect(off.ok && off.value).toMatchObject({ source: 'receiver', sandboxBot: 'receiver' });
    await raise('Kiran');
    await inInbox('Kiran');
    expect(relay.stored()).toBe(1);
  });

  it('given only its address and token, the view says the demo bot still posts to this computer', {
    timeout: 60_000,
  }, async () => {
    const { raise, inInbox } = await start();
    const r = await app.call('leads.connectRelay', { url: relay.url, token: relay.token });
    expect(r.ok && r.value).toMatchObject({ source: 'relay', sandboxBot: 'receiver' });
    await raise('Sunil');
    await inInbox('Sunil');
    expect(relay.stored()).toBe(0);
  });

  it('a webhook URL that is not an address is refused by name, nothing saved', {
    timeout: 60_000,
  }, async () => {
    await start();
    const r = await app.call('leads.connectRelay', {
      url: relay.url,
      token: relay.token,
      webhookUrl: 'hooks/wh_x',
    });
    expect(r.ok ? null : r.error.code).toBe('RELAY-WEBHOOK-URL');
    const v = await app.call('leads.relay', {});
    expect(v.ok && v.value.source).toBe('receiver');
  });
});
