import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { startRelay } from '/work/wt/relay/src-main/relay/relay-server';

const relay = await startRelay({ dataDir: mkdtempSync(join(tmpdir(), 'exp-')), port: 0, log: console.error });
const t0 = performance.now();
const ps = [];
for (let i = 0; i < 300; i++) {
  const due = t0 + i * 20;
  const w = due - performance.now();
  if (w > 0) await new Promise((r) => setTimeout(r, w));
  const b = JSON.stringify({ event: 'LEAD-CAPTURED', bot: { id: 1 }, conversation: { id: i + 1 } });
  ps.push(
    request(relay.webhookUrl, {
      method: 'POST',
      body: b,
      headers: { 'x-service-signature': 'sha256=' + '0'.repeat(64) },
    }).then(async (r) => {
      await r.body.dump();
      return r.statusCode;
    }),
  );
}
const st = await Promise.all(ps);
console.log('posted in', Math.round(performance.now() - t0), 'ms; stored', relay.stored(), 'statuses', [
  ...new Set(st),
]);
await relay.close();
