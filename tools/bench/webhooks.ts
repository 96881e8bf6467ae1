import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { request } from 'undici';
import { startReferenceServer } from '../../src-main/reference-server/server';
import { printReport } from './shared/recorded';
import type { Row } from './shared/table';

/**
 * `npm run bench:webhooks`: how many lead deliveries a second the reference server sustains to a local
 * receiver that answers at once, with N events raised through the admin surface. The baseline, measured
 * in the same run against the same receiver, is curl posting the same number of bodies of the same size
 * with the same parallelism: the figure to read is the ratio.
 */
export async function run(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: { events: { type: 'string', default: '1000' }, parallel: { type: 'string', default: '16' } },
  });
  const events = Number(values.events);
  const parallel = Number(values.parallel);
  if (!Number.isInteger(events) || events < 1 || !Number.isInteger(parallel) || parallel < 1) {
    console.error('bench-webhooks: --events and --parallel take positive whole numbers');
    return 2;
  }

  const receiver = await startCountingReceiver();
  const dir = mkdtempSync(join(tmpdir(), 'bench-webhooks-'));
  const server = await startReferenceServer({ dataDir: dir, kbRatePerMinute: 0, ratePerMinute: 0 });
  try {
    const admin = adminClient(server.baseUrl, server.adminToken);
    const client = await admin('POST', '/clients', { name: 'bench' });
    const bot = await admin('POST', '/bots', {
      client_id: client.client.id,
      name: 'Bench bot',
      business_name: 'Bench',
      webhook_url: receiver.url,
    });
    const lead = { name: 'Bench Lead', email: 'lead@example.com', phone: '+91 90000 00000', note: 'bench' };

    // Warm-up (JIT, connections), not counted.
    await admin('POST', `/bots/${bot.bot.id}/events`, { event: 'LEAD-CAPTURED', lead });
    await receiver.until(1);
    receiver.reset();

    const started = performance.now();
    let next = 0;
    await Promise.all(
      Array.from({ length: parallel }, async () => {
        while (next < events) {
          next++;
          await admin('POST', `/bots/${bot.bot.id}/events`, { event: 'LEAD-CAPTURED', lead });
        }
      }),
    );
    const raisedMs = performance.now() - started;
    await receiver.until(events);
    const deliveredMs = performance.now() - started;
    // Counted outside the server: the receiver got every event once (the delivery records say the same below).
    const received = receiver.count;
    const { deliveries } = await admin('GET', `/deliveries?bot_id=${bot.bot.id}`);
    // Less the warm-up event.
    const delivered = (deliveries as { state: string }[]).filter((d) => d.state === 'DELIVERED').length - 1;
    const bodyBytes = receiver.lastBodyBytes;

    receiver.reset();
    const curlMs = await curlBaseline(receiver.url, events, parallel, bodyBytes, dir);
    const baselineReceived = receiver.count;

    const rate = events / (deliveredMs / 1000);
    const result = {
      events,
      parallel,
      delivered,
      raise_seconds: round(raisedMs / 1000),
      deliver_seconds: round(deliveredMs / 1000),
      deliveries_per_second: Math.round(rate),
      baseline: curlMs === null ? null : 'curl --parallel, same receiver, same body size',
      baseline_requests: baselineReceived,
      baseline_requests_per_second: curlMs === null ? null : Math.round(baselineReceived / (curlMs / 1000)),
      ratio_to_baseline: curlMs === null ? null : round(rate / (baselineReceived / (curlMs / 1000))),
    };
    console.log(JSON.stringify(result));
    const done =
      delivered === events && received === events && (curlMs === null || baselineReceived === events);
    const rows: Row[] = [
      {
        figure: `lead deliveries to a local receiver, ${parallel} at once: deliveries per second`,
        measured: `${result.deliveries_per_second}/s (${events} raised; ${received} received, ${delivered} DELIVERED)`,
        baseline:
          curlMs === null
            ? 'curl not found: no baseline'
            : `curl --parallel ${result.baseline_requests_per_second} POST/s (${baselineReceived} received)`,
        ratio: curlMs === null ? '-' : `${result.ratio_to_baseline}x curl's rate`,
        target: `all ${events} received once`,
        pass: done,
      },
    ];
    printReport(
      'bench:webhooks',
      `lead deliveries (one run; ${events} events; baseline measured in this run)`,
      rows,
    );
    return done ? 0 : 1;
  } finally {
    await server.close();
    await receiver.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

const round = (n: number) => Math.round(n * 100) / 100;

function adminClient(baseUrl: string, token: string) {
  // biome-ignore lint/suspicious/noExplicitAny: the bench reads a few known fields of admin replies.
  return async (method: 'GET' | 'POST', path: string, body?: unknown): Promise<any> => {
    const res = await request(`${baseUrl}/__admin/v1${path}`, {
      method,
      headers: {
        'x-admin-token': token,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const json = await res.body.json();
    if (res.statusCode >= 300)
      throw new Error(`${method} ${path} answered ${res.statusCode}: ${JSON.stringify(json)}`);
    return json;
  };
}

async function startCountingReceiver() {
  let count = 0;
  let lastBodyBytes = 0;
  let wake: (() => void) | null = null;
  const server = createServer((req, res) => {
    let bytes = 0;
    req.on('data', (c: Buffer) => {
      bytes += c.length;
    });
    req.on('end', () => {
      count++;
      lastBodyBytes = bytes;
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
      wake?.();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    get count() {
      return count;
    },
    get lastBodyBytes() {
      return lastBodyBytes;
    },
    reset() {
      count = 0;
    },
    async until(n: number, timeoutMs = 120_000) {
      const deadline = Date.now() + timeoutMs;
      while (count < n) {
        if (Date.now() > deadline) throw new Error(`receiver got ${count} of ${n}`);
        await new Promise<void>((resolve) => {
          wake = resolve;
          setTimeout(resolve, 100);
        });
      }
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** curl posting `n` bodies of `bytes` bytes to the receiver, `parallel` at a time; null when curl is absent. */
function curlBaseline(
  url: string,
  n: number,
  parallel: number,
  bytes: number,
  dir: string,
): Promise<number | null> {
  const bodyFile = join(dir, 'body.json');
  writeFileSync(bodyFile, `{"pad":"${'x'.repeat(Math.max(0, bytes - 10))}"}`);
  const config = join(dir, 'urls.txt');
  writeFileSync(config, Array.from({ length: n }, () => `url = "${url}"\noutput = "/dev/null"\n`).join(''));
  return new Promise((resolve) => {
    const started = performance.now();
    const curl = spawn(
      'curl',
      [
        '-s',
        '--parallel',
        '--parallel-max',
        String(parallel),
        '-H',
        'content-type: application/json',
        '--data-binary',
        `@${bodyFile}`,
        '-K',
        config,
      ],
      { stdio: 'ignore' },
    );
    curl.on('error', () => resolve(null));
    curl.on('close', (code) => resolve(code === 0 ? performance.now() - started : null));
  });
}
