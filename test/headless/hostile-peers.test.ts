import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { HeadlessShell } from '../../src-main/headless/server';
import { WS_PROTOCOL } from '../../src-shared/transport/ws-messages';
import { exchange, getStatus } from '../fuzz/raw-client';
import { startTestShell, transportCore } from './helpers';

// What a web page or another local process can send the shell without the token: none of it may
// stop the process, which is the whole app (UI, core and sync together).
describe('headless shell under hostile input', () => {
  let shell: HeadlessShell;
  let port: number;
  let close: () => Promise<void>;
  const crashes: unknown[] = [];
  const monitor = (error: unknown) => crashes.push(error);
  const { core } = transportCore();

  beforeAll(async () => {
    process.on('uncaughtExceptionMonitor', monitor);
    ({ shell, port, close } = await startTestShell('headless-hostile-', core));
  });
  afterAll(async () => {
    process.off('uncaughtExceptionMonitor', monitor);
    await close();
  });
  afterEach(async () => {
    expect(crashes).toEqual([]);
    expect(await getStatus(port, '/')).toBe(200);
  });

  const host = () => `Host: 127.0.0.1:${port}\r\n`;

  it.each(['//[', '//[x', 'http://[', 'http://[/ws'])(
    'answers 400 to the request target %s',
    async (target) => {
      const r = await exchange(port, `GET ${target} HTTP/1.1\r\n${host()}\r\n`);
      expect(r.statuses).toEqual([400]);
    },
  );

  it.each(['//[', 'http://[', '//[/ws'])(
    'answers 400 to an upgrade to %s and closes the socket',
    async (target) => {
      const upgrade =
        `GET ${target} HTTP/1.1\r\n${host()}Origin: ${shell.origin}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
        `Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n` +
        `Sec-WebSocket-Protocol: ${WS_PROTOCOL}, t.${shell.token}\r\n\r\n`;
      const r = await exchange(port, upgrade, { wholeResponse: true });
      expect(r.statuses).toEqual([400]);
      expect(r.closed).toBe(true);
    },
  );

  const openSocket = () =>
    new Promise<WebSocket>((resolve, reject) => {
      const ws = new WebSocket(
        `${shell.origin.replace('http', 'ws')}/ws`,
        [WS_PROTOCOL, `t.${shell.token}`],
        {
          headers: { Origin: shell.origin },
        },
      );
      ws.once('open', () => resolve(ws));
      ws.once('error', reject);
    });
  const closeCode = (ws: WebSocket) =>
    new Promise<number>((resolve) => {
      ws.on('error', () => {});
      ws.once('close', (code) => resolve(code));
    });

  it('closes a socket that sends a frame over the 1 MB limit with 1009, and lives', async () => {
    const ws = await openSocket();
    const closed = closeCode(ws);
    ws.send('x'.repeat(1024 * 1024 + 1));
    expect(await closed).toBe(1009);
  });

  it('closes a socket that sends a text frame with invalid UTF-8 with 1007, and lives', async () => {
    const ws = await openSocket();
    const closed = closeCode(ws);
    ws.send(Buffer.from([0x7b, 0xff, 0xfe, 0x7d]), { binary: false });
    expect(await closed).toBe(1007);
  });

  it('refuses a dropped file whose name is over 255 bytes as too long, not as cut off', async () => {
    for (const name of [`${'a'.repeat(252)}.txt`, `${'é'.repeat(128)}.txt`]) {
      const r = await fetch(`${shell.origin}/upload?bucket=site&name=${encodeURIComponent(name)}`, {
        method: 'POST',
        headers: { Origin: shell.origin, 'x-assets-token': shell.token },
        body: 'hello',
      });
      expect(r.status).toBe(422);
      expect(await r.json()).toEqual({ code: 'NAME-TOO-LONG', message: expect.stringMatching(/255 bytes/) });
    }
  });
});
