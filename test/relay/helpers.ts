import { spawn } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type RelayOptions, type RunningRelay, startRelay } from '../../src-main/relay/relay-server';

const root = join(import.meta.dirname, '..', '..');

/** A lead body as the service sends it (section 2 of the webhook document, in its key order). */
export function leadBody(conversationId: number, botId = 7, name = 'Ravi'): string {
  return JSON.stringify({
    event: 'LEAD-CAPTURED',
    bot: { id: botId, name: 'Demo bot', business_name: 'Demo business' },
    lead: {
      name,
      email: 'ravi@example.com',
      phone: '+91 90000 11111',
      note: null,
      asked_for_a_person: false,
    },
    conversation: { id: conversationId, visitor_ref: 'v-1', started_at: '2025-03-04 11:12' },
  });
}

export const signBody = (body: string | Buffer, secret: string) =>
  `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;

/** Relays in temp folders, closed and removed after the test. */
export function relays() {
  const dirs: string[] = [];
  const running: RunningRelay[] = [];
  return {
    dir(): string {
      const d = mkdtempSync(join(tmpdir(), 'relay-'));
      dirs.push(d);
      return d;
    },
    async start(o: Partial<RelayOptions> & { dataDir: string }): Promise<RunningRelay> {
      const r = await startRelay({ port: 0, log: () => {}, ...o });
      running.push(r);
      return r;
    },
    async cleanup() {
      for (const r of running.splice(0)) await r.close();
      for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
    },
  };
}

/** POSTs a delivery to the relay's webhook URL. */
export async function deliver(
  url: string,
  body: string,
  headers: Record<string, string>,
): Promise<{ status: number; json: Record<string, unknown> }> {
  const res = await fetch(url, {
    method: 'POST',
    body,
    headers: { 'content-type': 'application/json', 'x-service-event': 'LEAD-CAPTURED', ...headers },
  });
  return { status: res.status, json: (await res.json()) as Record<string, unknown> };
}

export async function readFeed(relay: RunningRelay, query: string, token = relay.token) {
  const res = await fetch(`${relay.url}/v1/feed?${query}`, { headers: { authorization: `Bearer ${token}` } });
  // biome-ignore lint/suspicious/noExplicitAny: the tests assert the fields they read.
  return { status: res.status, json: (await res.json()) as any };
}

/** `assets-sync relay` in a child process (the real CLI), with its ready line. */
export function spawnRelay(args: string[]) {
  const child = spawn(process.execPath, [join(root, 'bin', 'assets-sync.mjs'), 'relay', ...args], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const ready = new Promise<{ url: string; webhook_url: string; token: string }>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
      const line = out.split('\n').find((l) => l.includes('"ready"'));
      if (line) resolve(JSON.parse(line));
    });
    void exited.then((code) =>
      reject(new Error(`the relay exited ${code} before its ready line: ${stderr}`)),
    );
  });
  return { child, ready, exited, stderr: () => stderr };
}
