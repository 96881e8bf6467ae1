import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { downloadToTemp } from '../../../src-main/reference-server/file-hosting/upload/receive-url';
import { isPrivateAddress } from '../../../src-main/reference-server/file-hosting/upload/source-guard';
import { parseServerFlags } from '../../../src-main/reference-server/options';
import { startServer, type TestServer } from './helpers';

/** A source on 127.0.0.1 (long request lines allowed): each path answers as its name says. */
async function startSource(): Promise<{ url: string; port: number; close(): Promise<void> }> {
  const server: Server = createServer({ maxHeaderSize: 256 * 1024 }, (req, res) => {
    const path = req.url ?? '/';
    if (path === '/404.txt') res.writeHead(404).end('no');
    else if (path === '/500.txt') res.writeHead(500).end('broken');
    else if (path === '/204.txt') res.writeHead(204).end();
    else if (path === '/empty.txt') res.writeHead(200).end();
    else if (path === '/reset.txt') req.socket.destroy();
    else if (path.startsWith('/loop')) res.writeHead(302, { location: `/loop${path.length}.txt` }).end();
    else if (path.startsWith('/to-other-loopback/'))
      res.writeHead(302, { location: `http://127.0.0.2:${port}/a.txt` }).end();
    else res.writeHead(200, { 'content-type': 'text/plain' }).end('source bytes');
  });
  await new Promise<void>((r) => server.listen(0, '0.0.0.0', r));
  const port = (server.address() as { port: number }).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

const json = (body: unknown) => ({
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(body),
});

let s: TestServer;
let key: string;
let source: Awaited<ReturnType<typeof startSource>>;
beforeAll(async () => {
  [s, source] = await Promise.all([startServer(), startSource()]);
  key = String(s.server.demo!.api_key);
});
afterAll(async () => {
  await Promise.all([s.stop(), source.close()]);
});

describe('names taken from the source', () => {
  it("a URL's last segment of 60,000 characters is shortened to 255, its extension kept; so is a part's filename", async () => {
    const long = `${'a'.repeat(60_000)}.txt`;
    const r = await s.api(key, 'POST', '/files', json({ source_url: `${source.url}/${long}` }));
    expect(r.status, JSON.stringify(r.json).slice(0, 300)).toBe(201);
    expect([...r.json.data.name].length).toBe(255);
    expect(r.json.data.name).toBe(`${'a'.repeat(251)}.txt`);
    const part = await s.upload(key, `${'é'.repeat(300)}.txt`, 'bytes');
    expect(part.status).toBe(201);
    expect(part.json.data.name).toBe(`${'é'.repeat(251)}.txt`);
    // A name sent as the name is refused, as before: it was chosen, not found.
    const sent = await s.upload(key, 'a.txt', 'bytes', { name: 'n'.repeat(256) });
    expect([sent.status, sent.json.code]).toEqual([422, 'VALIDATION']);
  });
});

describe('SOURCE-UNREACHABLE says nothing of the target', () => {
  it('one text whatever the failure: refused port, 404, 500, 204, empty, reset, too many redirects', async () => {
    const closed = await startSource();
    await closed.close();
    const urls = [
      `${closed.url}/a.txt`,
      `${source.url}/404.txt`,
      `${source.url}/500.txt`,
      `${source.url}/204.txt`,
      `${source.url}/empty.txt`,
      `${source.url}/reset.txt`,
      `${source.url}/loop.txt`,
    ];
    const texts = new Set<string>();
    for (const url of urls) {
      const r = await s.api(key, 'POST', '/files', json({ source_url: url }));
      expect([url, r.status, r.json.code]).toEqual([url, 422, 'SOURCE-UNREACHABLE']);
      texts.add((r.json.errors as string[]).join(' ').replace(url, 'URL'));
    }
    expect([...texts]).toHaveLength(1);
    expect([...texts][0]).toMatch(/^URL could not be downloaded: it must answer HTTP 200/);
  });
});

describe('--refuse-private-sources', () => {
  it('is off by default and parsed as a switch', () => {
    expect(parseServerFlags([])).toMatchObject({ ok: true, options: { refusePrivateSources: false } });
    expect(parseServerFlags(['--refuse-private-sources'])).toMatchObject({
      ok: true,
      options: { refusePrivateSources: true },
    });
    expect(parseServerFlags(['--refuse-private-sources=yes'])).toMatchObject({ ok: false });
  });

  it('knows loopback, link-local and private addresses, in IPv4 and IPv6, mapped ones too', () => {
    for (const ip of [
      '127.0.0.1',
      '127.8.9.10',
      '10.1.2.3',
      '172.16.0.1',
      '172.31.255.255',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '224.0.0.1',
      '255.255.255.255',
      '::1',
      '::',
      'fe80::1',
      'fd00::1',
      'fc12::3',
      '::ffff:127.0.0.1',
      '::ffff:7f00:1',
      '::ffff:a9fe:a9fe',
      '64:ff9b::10.0.0.1',
      '[::1]',
      'not an address',
    ])
      expect([ip, isPrivateAddress(ip)]).toEqual([ip, true]);
    for (const ip of ['8.8.8.8', '1.1.1.1', '172.32.0.1', '192.169.0.1', '2606:4700::1111', '::ffff:8.8.8.8'])
      expect([ip, isPrivateAddress(ip)]).toEqual([ip, false]);
  });

  it('refuses a loopback source by address or by name, with its own sentence and nothing stored', async () => {
    const guarded = await startServer({ refusePrivateSources: true });
    try {
      const gkey = String(guarded.server.demo!.api_key);
      const before = guarded.objectCount();
      for (const url of [
        `${source.url}/a.txt`,
        `http://localhost:${source.port}/a.txt`,
        `http://[::1]:1/a.txt`,
      ]) {
        const r = await guarded.api(gkey, 'POST', '/files', json({ source_url: url }));
        expect([url, r.status, r.json.code]).toEqual([url, 422, 'SOURCE-UNREACHABLE']);
        expect(r.json.errors.join(' ')).toMatch(
          /loopback, link-local or private address.*--refuse-private-sources/,
        );
      }
      expect(guarded.objectCount()).toBe(before);
      // Off (the default), the same source is fetched: the reference server is a local fixture.
      expect((await s.api(key, 'POST', '/files', json({ source_url: `${source.url}/a.txt` }))).status).toBe(
        201,
      );
    } finally {
      await guarded.stop();
    }
  });

  it('checks the address of every redirect hop, not only the first', async () => {
    // The rule here refuses 127.0.0.2 only, so that the first hop (127.0.0.1) is let through and the
    // redirect's target is what is refused; the rule itself is the one tested above.
    const dir = mkdtempSync(join(tmpdir(), 'source-guard-'));
    try {
      const refuse = (address: string) => address === '127.0.0.2';
      const direct = await downloadToTemp(new URL(`${source.url}/a.txt`), join(dir, 'a'), {
        refuseAddress: refuse,
      });
      expect(direct.ok).toBe(true);
      const causes: string[] = [];
      const hop = await downloadToTemp(new URL(`${source.url}/to-other-loopback/a.txt`), join(dir, 'b'), {
        refuseAddress: refuse,
        onFailure: (_url, cause) => causes.push(cause),
      });
      expect(hop.ok).toBe(false);
      expect(!hop.ok && hop.failure.message).toMatch(/private address.*--refuse-private-sources/);
      expect(causes.join(' ')).toContain('127.0.0.2');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
