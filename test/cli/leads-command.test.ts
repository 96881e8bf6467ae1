import { afterAll, beforeAll, expect, it } from 'vitest';
import type { RunningRelay } from '../../src-main/relay/relay-server';
import { deliver, leadBody, relays, signBody } from '../relay/helpers';
import { runCli } from './run-cli';

const SECRET = 'whsec_cli';
const r = relays();
let relay: RunningRelay;
let env: Record<string, string>;
let dataDir: string;

beforeAll(async () => {
  relay = await r.start({ dataDir: r.dir() });
  for (const [id, name] of [
    [11, 'Asha Rao'],
    [12, 'Vikram Shah'],
  ] as const) {
    const body = leadBody(id, 7, name);
    await deliver(relay.webhookUrl, body, { 'x-service-signature': signBody(body, SECRET) });
  }
  env = { ASSETS_RELAY_URL: relay.url, ASSETS_RELAY_TOKEN: relay.token, ASSETS_SIGNING_SECRET: SECRET };
  dataDir = r.dir();
});
afterAll(() => r.cleanup());

it('pulls from the relay first, then lists, searches and exports what is verified', async () => {
  const all = await runCli(['leads', '--data-dir', dataDir], env);
  expect(all.code, all.stderr).toBe(0);
  expect(all.stdout).toContain('Asha Rao');
  expect(all.stdout).toContain('Vikram Shah');
  expect(all.stderr).toMatch(/2 new, 0 handled elsewhere, 0 refused/);

  const found = await runCli(['leads', '--json', '--search', 'vikram', '--open', '--data-dir', dataDir], env);
  expect(found.lines.map((l) => [l.conversationId, l.name])).toEqual([[12, 'Vikram Shah']]);
  expect((await runCli(['leads', '--json', '--handled', '--data-dir', dataDir], env)).lines).toEqual([]);

  const csv = await runCli(['leads', '--csv', '--no-pull', '--data-dir', dataDir], env);
  expect(csv.stdout.split('\r\n')[0]).toMatch(
    /^received_at \(this computer's clock; ISO 8601 in IST \+05:30\),event,handoff,name,/,
  );
  expect(csv.stdout).toContain('Asha Rao');
  // Four CLI processes: over a minute beside the whole suite on a busy machine.
}, 180_000);

it('says what is wrong: flags that exclude each other, a relay that refuses the token, a relay flag', async () => {
  expect((await runCli(['leads', '--csv', '--json', '--data-dir', dataDir], env)).code).toBe(2);
  expect((await runCli(['leads', '--open', '--handled', '--data-dir', dataDir], env)).code).toBe(2);
  const refused = await runCli(['leads', '--data-dir', r.dir()], {
    ...env,
    ASSETS_RELAY_TOKEN: 'rlt_stolen_guess',
  });
  expect(refused.code).toBe(1);
  expect(refused.stderr).toMatch(/refused the read token.*RELAY-TOKEN-REFUSED/);
  const noToken = await runCli(['leads', '--data-dir', r.dir()], { ASSETS_RELAY_URL: relay.url });
  expect(noToken.code).toBe(1);
  expect(noToken.stderr).toMatch(/ASSETS_RELAY_TOKEN/);
  const badPort = await runCli(['relay', '--port', 'eighty']);
  expect(badPort.code).toBe(2);
  expect(badPort.stderr).toMatch(/--port must be a whole number/);
}, 180_000);

it('says how many leads the relay deleted (retention) before this desk pulled them', async () => {
  const dir = r.dir();
  let now = Date.parse('2025-01-01T00:00:00Z');
  const old = await r.start({ dataDir: dir, retentionDays: 90, now: () => now });
  for (const id of [21, 22]) {
    const body = leadBody(id, 7, 'Gone Lead');
    await deliver(old.webhookUrl, body, { 'x-service-signature': signBody(body, SECRET) });
  }
  await old.close();
  now += 95 * 24 * 3600 * 1000;
  const swept = await r.start({ dataDir: dir, retentionDays: 90, now: () => now });
  const late = await runCli(['leads', '--data-dir', r.dir()], {
    ASSETS_RELAY_URL: swept.url,
    ASSETS_RELAY_TOKEN: swept.token,
    ASSETS_SIGNING_SECRET: SECRET,
  });
  expect(late.code, late.stderr).toBe(0);
  expect(late.stderr).toContain(
    '2 leads were deleted by the relay (older than its retention) before this desk read them',
  );
}, 120_000);
