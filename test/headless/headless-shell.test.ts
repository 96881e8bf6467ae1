import { readdirSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { HeadlessShell } from '../../src-main/headless/server';
import { DEFAULT_SETTINGS } from '../../src-shared/contract';
import { ok } from '../../src-shared/errors';
import { WS_PROTOCOL } from '../../src-shared/transport/ws-messages';
import { startTestShell, transportCore } from './helpers';

// The shell with the real dispatcher and event bus; the sections are small so that the test is
// about the transport: who may connect, what a call looks like, what an event looks like.
describe('headless shell', () => {
  let dir: string;
  let shell: HeadlessShell;
  let close: () => Promise<void>;
  const { bus, uploads, core } = transportCore();

  beforeAll(async () => {
    ({ dir, shell, close } = await startTestShell('headless-', core));
  });
  afterAll(() => close());

  const open = (headers: Record<string, string>, protocols = [WS_PROTOCOL, `t.${shell.token}`]) =>
    new Promise<WebSocket>((resolve, reject) => {
      const ws = new WebSocket(`${shell.origin.replace('http', 'ws')}/ws`, protocols, { headers });
      ws.once('open', () => resolve(ws));
      ws.once('error', reject);
      ws.once('unexpected-response', (_req, res) => reject(new Error(`HTTP ${res.statusCode}`)));
    });

  it('listens on 127.0.0.1 only and puts the token in the fragment', () => {
    expect(shell.origin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(shell.url).toBe(`${shell.origin}/#token=${shell.token}`);
    expect(shell.token.length).toBeGreaterThanOrEqual(32);
  });

  it('serves the page with a strict CSP', async () => {
    const res = await fetch(`${shell.origin}/files`);
    expect(res.status).toBe(200);
    const csp = res.headers.get('content-security-policy')!;
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain(`connect-src 'self' ${shell.origin.replace('http', 'ws')}`);
    expect(csp).not.toContain('unsafe');
  });

  it('refuses a socket without the token, with a wrong token, from another origin', async () => {
    const origin = { Origin: shell.origin };
    await expect(open(origin, [WS_PROTOCOL])).rejects.toThrow(/401/);
    await expect(open(origin, [WS_PROTOCOL, 't.wrong'])).rejects.toThrow(/401/);
    await expect(open({ Origin: 'http://evil.example' })).rejects.toThrow(/403/);
    await expect(open({})).rejects.toThrow(/403/);
  });

  it('refuses a rebinding Host header', async () => {
    const status = await new Promise<number>((resolve) => {
      const req = request(`${shell.origin}/`, { headers: { Host: 'evil.example' } }, (res) =>
        resolve(res.statusCode!),
      );
      req.end();
    });
    expect(status).toBe(421);
  });

  it('carries calls and events; a malformed request is a VALIDATION error, a malformed frame closes', async () => {
    const ws = await open({ Origin: shell.origin });
    const replies: unknown[] = [];
    ws.on('message', (m) => replies.push(JSON.parse(String(m))));
    ws.send(JSON.stringify({ t: 'call', id: 1, name: 'settings.get', request: {} }));
    ws.send(
      JSON.stringify({ t: 'call', id: 2, name: 'files.uploadPaths', request: { paths: [], bucket: 'x' } }),
    );
    await expect.poll(() => replies.length).toBe(2);
    bus.emit('notify', { kind: 'error', title: 't', body: 'b' });
    await expect.poll(() => replies.length).toBe(3);
    expect(replies).toContainEqual({ t: 'reply', id: 1, result: ok(DEFAULT_SETTINGS) });
    expect(replies).toContainEqual(
      expect.objectContaining({ id: 2, result: expect.objectContaining({ ok: false }) }),
    );
    expect(replies[2]).toEqual({
      t: 'event',
      event: 'notify',
      payload: { kind: 'error', title: 't', body: 'b' },
    });
    const closed = new Promise<number>((r) => ws.once('close', (code) => r(code)));
    ws.send('{not json');
    expect(await closed).toBe(1007);
  });

  it('takes a dropped file over HTTP only with the token and the origin', async () => {
    const post = (headers: Record<string, string>, query = 'bucket=site&name=a.txt') =>
      fetch(`${shell.origin}/upload?${query}`, { method: 'POST', headers, body: 'hello' });
    expect((await post({ Origin: shell.origin })).status).toBe(401);
    expect((await post({ Origin: 'http://evil.example', 'x-assets-token': shell.token })).status).toBe(403);
    const bad = await post({ Origin: shell.origin, 'x-assets-token': shell.token }, 'bucket=Bad!&name=a.txt');
    expect(bad.status).toBe(422);
    expect(((await bad.json()) as { code: string }).code).toBe('BUCKET-INVALID');
    const good = await post(
      { Origin: shell.origin, 'x-assets-token': shell.token },
      'bucket=site&name=..%2F..%2Fa.txt',
    );
    expect(good.status).toBe(202);
    expect(uploads.at(-1)!.bucket).toBe('site');
    expect(uploads.at(-1)!.paths[0]!.startsWith(join(dir, 'incoming'))).toBe(true);
    expect(uploads.at(-1)!.paths[0]!.endsWith('/a.txt')).toBe(true);
    expect(readdirSync(join(dir, 'incoming')).length).toBe(1);
  });
});
