import { createHmac } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { createLeadsService } from '/work/wt/relay/src-main/core/leads/leads-service';
import { LEADS_MIGRATIONS } from '/work/wt/relay/src-main/core/leads/migrations';
import { startRelay } from '/work/wt/relay/src-main/relay/relay-server';
import { openDatabase } from '/work/wt/relay/src-main/shared-node/sqlite';

const dir = mkdtempSync(join(tmpdir(), 'exp-'));
const relay = await startRelay({ dataDir: dir, port: 0, log: console.error });
const seen = new Map();
for (const name of ['d1', 'd2']) {
  const db = openDatabase(join(dir, name + '.sqlite'), LEADS_MIGRATIONS);
  const m = new Map([['signing-secret:1', 'S']]);
  const leads = createLeadsService({
    db,
    secrets: { get: (a) => m.get(a) ?? null, set: (a, s) => void m.set(a, s), delete: (a) => m.delete(a) },
    botIds: () => [1],
    onLead: (l) => seen.set(name + l.conversationId, Date.now()),
    receiver: { port: 0 },
    log: console.error,
  });
  const c = await leads.connectRelay({ url: relay.url, token: relay.token, deskName: name });
  console.log('connected', c.ok);
  (globalThis as any).desks = [...((globalThis as any).desks ?? []), leads];
}
const t0 = performance.now();
const ps = [];
for (let i = 0; i < 300; i++) {
  const due = t0 + i * 20;
  const w = due - performance.now();
  if (w > 0) await new Promise((r) => setTimeout(r, w));
  const b = JSON.stringify({ event: 'LEAD-CAPTURED', bot: { id: 1 }, conversation: { id: i + 1 } });
  const sig = 'sha256=' + createHmac('sha256', 'S').update(b).digest('hex');
  ps.push(
    request(relay.webhookUrl, { method: 'POST', body: b, headers: { 'x-service-signature': sig } }).then(
      async (r) => {
        await r.body.dump();
        return r.statusCode;
      },
    ),
  );
}
const st = await Promise.all(ps);
console.log(
  'posted in',
  Math.round(performance.now() - t0),
  'ms; stored',
  relay.stored(),
  'statuses',
  [...new Set(st)],
  'seen',
  seen.size,
);
await new Promise((r) => setTimeout(r, 2000));
console.log(
  'seen',
  seen.size,
  JSON.stringify(
    (globalThis as any).desks.map((d: any) => [d.relay(), d.list().length, d.rejected().slice(0, 1)]),
  ),
);
process.exit(0);
