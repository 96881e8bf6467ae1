import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createDispatcher } from '../../src-main/core/app/dispatcher';
import { createEventBus } from '../../src-main/core/app/event-bus';
import { type HeadlessShell, startHeadlessShell } from '../../src-main/headless/server';
import { DEFAULT_SETTINGS } from '../../src-shared/contract';
import { ok } from '../../src-shared/errors';
import { WS_PROTOCOL } from '../../src-shared/transport/ws-messages';
import { exchange, getStatus } from '../fuzz/raw-client';

// What a web page or another local process can send the shell without the token: none of it may
// stop the process, which is the whole app (UI, core and sync together).
describe('headless shell under hostile input', () => {
  let dir: string;
  let shell: HeadlessShell;
  let port: number;
  const crashes: unknown[] = [];
  const monitor = (error: unknown) => crashes.push(error);
  const bus = createEventBus();
  const dispatch = createDispatcher([
    { name: 't', handlers: { 'settings.get': async () => ok(DEFAULT_SETTINGS) } },
  ]);

  beforeAll(async () => {
    process.on('uncaughtExceptionMonitor', monitor);
    dir = mkdtempSync(join(tmpdir(), 'headless-hostile-'));
    mkdirSync(join(dir, 'renderer'));
    writeFileSync(join(dir, 'renderer', 'index.html'), '<!doctype html><title>t</title>');
    shell = await startHeadlessShell({
      core: { call: dispatch, subscribe: bus.subscribe },
      rendererDir: join(dir, 'renderer'),
      dropDir: join(dir, 'incoming'),
    });
    port = Number(new URL(shell.origin).port);
  });
  afterAll(async () => {
    process.off('uncaughtExceptionMonitor', monitor);
    await shell.close();
    rmSync(dir, { recursive: true, force: true });
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
});
