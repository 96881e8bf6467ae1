import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AppService, createAppService } from '../../src-main/core/app/app-service';
import { botTokenAccount } from '../../src-main/core/kb/bots';
import { signingSecretAccount } from '../../src-main/core/leads/signing-keys';
import type { AnyEvent, KbBotView, LeadView } from '../../src-shared/contract';
import { adminCall, createClient, startTestServer } from '../support/reference-server';
import { removeDir, tempDir, testKeychain } from './helpers';

/**
 * The sandbox's demo bot belongs to the sandbox: once the app runs on a real account it is gone,
 * with its entries, outbox, secrets and demo leads, instead of staying in the list forever offline.
 */
describe('the sandbox demo bot goes with the sandbox', () => {
  const dir = tempDir('kb-sandbox-bot-');
  const keychain = testKeychain();
  let app: AppService;
  let service: Awaited<ReturnType<typeof startTestServer>>;
  const events: AnyEvent[] = [];

  const call = async <T>(name: string, request: unknown): Promise<T> => {
    const r = await app.call(name, request);
    if (!r.ok) throw new Error(`${name}: ${r.error.code} ${r.error.message}`);
    return r.value as T;
  };
  const bots = async () => (await call<{ bots: KbBotView[] }>('kb.bots', {})).bots;
  const next = (pick: (e: AnyEvent) => boolean) =>
    new Promise<AnyEvent>((resolve) => {
      const seen = events.find(pick);
      if (seen) return resolve(seen);
      const off = app.subscribe((e) => {
        if (pick(e)) {
          off();
          resolve(e);
        }
      });
    });

  beforeAll(async () => {
    service = await startTestServer({ port: 0 });
    app = await createAppService({ dataDir: join(dir, 'data'), secrets: keychain, env: {}, log: () => {} });
    app.subscribe((e) => events.push(e));
  });
  afterAll(async () => {
    await app?.close();
    await service?.stop();
    keychain.cleanup();
    removeDir(dir);
  });

  it('connecting a real account removes the demo bot, its entries, secrets and demo leads', async () => {
    await call('session.useSandbox', {});
    await next((e) => e.event === 'kb.botsChanged' && e.payload.bots.some((b) => b.isSandbox));
    const demo = (await bots()).find((b) => b.isSandbox)!;
    expect(demo.name).toBe('Demo bot');
    await call('kb.create', { botId: demo.id, title: 'Try me', description: 'A sandbox entry' });
    const live = app.context.session.live!.connection;
    const raised = await adminCall(
      live.baseUrl,
      live.adminToken!,
      'POST',
      `/bots/${demo.remoteBotId}/events`,
      {
        event: 'LEAD-CAPTURED',
        lead: { name: 'Asha', email: 'asha@example.com', phone: '+91 98111 22222' },
      },
    );
    expect(raised.status).toBe(202);
    await next((e) => e.event === 'leads.new' && (e.payload as LeadView).name === 'Asha');
    expect(keychain.get(botTokenAccount(demo.id))).not.toBeNull();

    const client = await createClient(service.admin, { name: 'Acme Traders' });
    await call('session.connect', { baseUrl: service.baseUrl, apiKey: client.api_key });
    // The switch to the account removes it before the connect answers.

    expect(await bots()).toEqual([]);
    expect(keychain.get(botTokenAccount(demo.id))).toBeNull();
    expect(keychain.get(signingSecretAccount(demo.id))).toBeNull();
    const left = (sql: string) => (app.context.db.prepare(sql).get(demo.id) as { n: number }).n;
    expect(left('SELECT COUNT(*) AS n FROM kb_entries WHERE bot_local_id = ?')).toBe(0);
    expect(left('SELECT COUNT(*) AS n FROM kb_outbox WHERE bot_local_id = ?')).toBe(0);
    expect(left('SELECT COUNT(*) AS n FROM leads WHERE bot_local_id = ?')).toBe(0);
  });
});
