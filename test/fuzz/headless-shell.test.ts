import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AppService, createAppService } from '../../src-main/core/app/app-service';
import { type HeadlessShell, startHeadlessShell } from '../../src-main/headless/server';
import { WS_PROTOCOL } from '../../src-shared/transport/ws-messages';
import { memorySecrets } from '../support/secrets';
import { jsonBodyArb, multipartArb, rawRequest, requestArb } from './http-arbitraries';
import { exchange, getStatus } from './raw-client';
import { fuzz, summary } from './run-fuzz';
import { framesArb } from './ws-frames';

// The headless shell is the whole app (UI, core and sync in one process), reachable by anything on
// this machine and by any web page the user opens: generated requests and WebSocket frames, with
// and without the token, must neither stop it nor draw a 5xx. The core behind it is the real app
// service on a fresh data folder (first run: no account, no sandbox).
let dir: string;
let app: AppService;
let shell: HeadlessShell;
let port: number;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'fuzz-headless-'));
  mkdirSync(join(dir, 'renderer', 'assets'), { recursive: true });
  writeFileSync(join(dir, 'renderer', 'index.html'), '<!doctype html><title>t</title>');
  writeFileSync(join(dir, 'renderer', 'assets', 'app.js'), 'console.log(1)');
  app = await createAppService({
    dataDir: join(dir, 'data'),
    secrets: memorySecrets(),
    env: {},
    log: () => {},
  });
  shell = await startHeadlessShell({
    core: app,
    rendererDir: join(dir, 'renderer'),
    dropDir: join(dir, 'incoming'),
  });
  port = Number(new URL(shell.origin).port);
});
afterAll(async () => {
  await shell.close();
  await app.close();
  rmSync(dir, { recursive: true, force: true });
});

const alive = async () => {
  expect(await getStatus(port, '/')).toBe(200);
};

describe('headless shell fuzz', () => {
  it('answers thousands of generated HTTP requests without a 5xx and stays up', async () => {
    const host = `127.0.0.1:${port}`;
    const token = { Origin: `http://${host}`, 'X-Assets-Token': shell.token };
    const outcome = await fuzz({
      port: () => port,
      arb: requestArb({
        host,
        paths: [
          '/',
          '/index.html',
          '/assets/app.js',
          '/files',
          '/../../etc/passwd',
          '/%2e%2e/%2e%2e/etc/passwd',
          '/ws',
          '/upload',
          '/upload?bucket=site&name=a.txt',
          '/upload?bucket=site&name=..%2F..%2Fa.txt',
          `/upload?bucket=site&name=${'a'.repeat(300)}.txt`,
          '/upload?bucket=Bad!&name=a.txt',
          '/upload?bucket=site&name=%00',
        ],
        credentials: [
          token,
          { Origin: 'http://evil.example', 'X-Assets-Token': shell.token },
          { Origin: `http://${host}` },
        ],
        bodies: fc.oneof(jsonBodyArb(['paths', 'bucket']), multipartArb),
      }),
      numRuns: 300,
      alive,
    });
    console.log(`headless HTTP fuzz: ${summary(outcome)}`);
    expect(outcome.statuses.get(200)).toBeGreaterThan(0);
    expect(outcome.statuses.get(400)).toBeGreaterThan(0);
  });

  it('takes thousands of generated WebSocket frames after a valid handshake without stopping', async () => {
    const handshake = (protocols: string) =>
      `GET /ws HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nOrigin: ${shell.origin}\r\nUpgrade: websocket\r\n` +
      `Connection: Upgrade\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n` +
      `Sec-WebSocket-Protocol: ${protocols}\r\n\r\n`;
    const arb = fc
      .tuple(
        fc.constantFrom(
          `${WS_PROTOCOL}, t.${shell.token}`,
          `${WS_PROTOCOL}, t.${shell.token}`,
          `${WS_PROTOCOL}`,
          'x',
        ),
        framesArb,
      )
      .map(([protocols, f]) =>
        rawRequest(Buffer.concat([Buffer.from(handshake(protocols)), f.frames]), true),
      );
    const outcome = await fuzz({
      port: () => port,
      arb,
      numRuns: 250,
      alive,
      // Our side ends after the frames; the exchange lasts until the shell closes the socket.
      send: (p, item) => exchange(p, item.bytes, { halfClose: true, wholeResponse: true }),
    });
    console.log(`headless WebSocket fuzz: ${summary(outcome)}`);
    expect(outcome.statuses.get(101)).toBeGreaterThan(0);
  });
});
