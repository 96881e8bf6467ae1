import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import type { RunningServer } from '../../src-main/reference-server/server';
import { runCli } from '../cli/run-cli';
import { admin, makeBot, startServer } from '../kb/helpers';
import { deliver, leadBody, signBody, spawnRelay } from './helpers';

/**
 * The target: the reference server pointed at a relay and no desk running; 20 leads raised,
 * the relay killed with -9 once in the middle and restarted, a forged delivery posted, the service's
 * retries run on the admin clock; then two desks that never ran each list exactly the 20
 * conversations, once each, and not the forged one.
 */
const dir = mkdtempSync(join(tmpdir(), 'relay-e2e-'));
let server: RunningServer | null = null;
const children: ReturnType<typeof spawnRelay>[] = [];
afterAll(async () => {
  for (const c of children) if (c.child.exitCode === null) c.child.kill('SIGKILL');
  await server?.close();
  rmSync(dir, { recursive: true, force: true });
});

const lead = (i: number) => ({
  event: 'LEAD-CAPTURED',
  lead: {
    name: `Lead ${i}`,
    email: `lead${i}@example.com`,
    phone: `+91 90000 ${String(i).padStart(5, '0')}`,
  },
});

it('loses nothing across a kill -9, and two new desks each list the 20 signed leads once', async () => {
  server = await startServer(join(dir, 'server'), 0, { webhookTimeoutMs: 3000 });
  const relayData = join(dir, 'relay');
  const first = spawnRelay(['--port', '0', '--data-dir', relayData]);
  children.push(first);
  const ready = await first.ready;
  const port = new URL(ready.url).port;
  const bot = await makeBot(server, ready.webhook_url);
  const botId = bot.bot.id;
  const raise = async (i: number) => {
    const r = await admin(server!, 'POST', `/bots/${botId}/events`, lead(i));
    expect(r.status).toBe(202);
    return r.json.conversation_id as number;
  };
  const deliveries = async () =>
    (await admin(server!, 'GET', `/deliveries?bot_id=${botId}`)).json.deliveries as {
      conversation_id: number;
      state: string;
    }[];

  const raised: number[] = [];
  for (let i = 1; i <= 10; i++) raised.push(await raise(i));
  // Killed while the first ten are still being delivered: whatever it acknowledged must survive.
  first.child.kill('SIGKILL');
  await first.exited;
  const atKill = await deliveries();
  console.log(`relay killed with ${atKill.filter((d) => d.state === 'DELIVERED').length} of 10 acknowledged`);
  for (let i = 11; i <= 15; i++) raised.push(await raise(i));

  const second = spawnRelay(['--port', port, '--data-dir', relayData]);
  children.push(second);
  const again = await second.ready;
  expect(again.webhook_url).toBe(ready.webhook_url);
  expect(again.token).toBe(ready.token);
  for (let i = 16; i <= 20; i++) raised.push(await raise(i));

  // A forged delivery: the right path (a leaked URL) but not the bot's secret.
  const forged = leadBody(987_654, botId, 'Forged');
  const posted = await deliver(ready.webhook_url, forged, {
    'x-service-signature': signBody(forged, 'guessed'),
  });
  expect(posted.status).toBe(200);

  // The service's retries: after 60 s, then 5 minutes later.
  expect((await admin(server, 'POST', '/clock/advance', { seconds: 60 })).status).toBe(200);
  expect((await admin(server, 'POST', '/clock/advance', { seconds: 300 })).status).toBe(200);
  const settled = await deliveries();
  expect(settled.map((d) => d.state)).toEqual(Array(20).fill('DELIVERED'));

  const env = {
    ASSETS_RELAY_URL: again.url,
    ASSETS_RELAY_TOKEN: again.token,
    ASSETS_SIGNING_SECRET: bot.signing_secret,
  };
  // Two desks that never ran, at once (each its own data folder and cursor).
  const runs = await Promise.all(
    ['desk-a', 'desk-b'].map((desk) => runCli(['leads', '--json', '--data-dir', join(dir, desk)], env)),
  );
  for (const run of runs) {
    expect(run.code, run.stderr).toBe(0);
    const ids = run.lines.map((l) => l.conversationId as number);
    expect([...ids].sort((a, b) => a - b)).toEqual([...raised].sort((a, b) => a - b));
    expect(new Set(ids).size).toBe(20);
    expect(ids).not.toContain(987_654);
    expect(run.stderr).toMatch(/refused delivery #\d+ .*conversation 987654.*SIGNATURE-MISMATCH/);
  }
  second.child.kill('SIGTERM');
  expect(await second.exited).toBe(0);
  // Four processes started (two relays, two desks) and six minutes of the service's clock: on a busy
  // machine beside the whole suite this took over a minute.
}, 240_000);
