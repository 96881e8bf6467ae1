import { createHash, randomFillSync } from 'node:crypto';
import { closeSync, openSync, rmSync, utimesSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FileChangedError, multipartBody } from '../../src-main/core/service/multipart-body';
import { HASH_WHILE_SENDING_BYTES } from '../../src-main/core/sync/hash/prepare';
import { makeEngine, md5Of, type SyncTestServer, startServer, tempDir, testClient } from './helpers';

async function bodyBytes(stream: AsyncGenerator<Uint8Array>): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const c of stream) parts.push(Buffer.from(c));
  return Buffer.concat(parts);
}

describe('the md5 sent after the file part', () => {
  it('keeps the announced length and puts the hash field after the bytes', async () => {
    const dir = tempDir();
    try {
      const file = join(dir, 'x.bin');
      writeFileSync(file, 'some bytes');
      const confirmed: string[] = [];
      const body = multipartBody(
        [['bucket', 'b']],
        { path: file, size: 10, filename: 'x.bin' },
        {
          field: 'hash',
          confirm: async (md5) => {
            confirmed.push(md5);
          },
        },
      );
      const bytes = await bodyBytes(body.stream());
      expect(bytes.length).toBe(body.contentLength);
      const text = bytes.toString('utf8');
      expect(text.indexOf('some bytes')).toBeLessThan(text.indexOf('name="hash"'));
      // The md5 of the bytes as read, told to the caller before it is sent.
      const md5 = createHash('md5').update('some bytes').digest('hex');
      expect(confirmed).toEqual([md5]);
      expect(text).toMatch(new RegExp(`name="hash"\\r\\n\\r\\n${md5}\\r\\n--[^\\r]+--\\r\\n$`));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('fails the body (FILE-CHANGED) when the caller disowns the md5, before its last bytes', async () => {
    const dir = tempDir();
    try {
      const file = join(dir, 'x.bin');
      writeFileSync(file, 'some bytes');
      const body = multipartBody(
        [],
        { path: file, size: 10, filename: 'x.bin' },
        {
          field: 'hash',
          confirm: async () => {
            throw new Error('The file changed while it was sent.');
          },
        },
      );
      await expect(bodyBytes(body.stream())).rejects.toBeInstanceOf(FileChangedError);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('a large new file is hashed while it is sent', () => {
  let server: SyncTestServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(async () => {
    await server.stop();
  });

  it('goes live once, with the right md5, journaled before the reply', async () => {
    const dir = tempDir();
    const file = join(dir, 'big.mp4');
    writeFileSync(file, randomFillSync(Buffer.alloc(HASH_WHILE_SENDING_BYTES + 4096)));
    const past = new Date(Date.now() - 60_000);
    utimesSync(file, past, past);
    const h = makeEngine(testClient(server.baseUrl, server.demoKey));
    try {
      const queuedWithoutMd5: (string | null)[] = [];
      h.engine.on('file', (e) => {
        if (e.to === 'QUEUED') queuedWithoutMd5.push(h.engine.getFile(e.fileId)?.md5 ?? null);
      });
      await h.engine.start();
      expect((await h.engine.addFolder({ path: dir, bucket: 'big' })).ok).toBe(true);
      expect((await h.engine.waitUntilSettled()).allDone).toBe(true);
      // It really took the path under test: queued before any md5 was known.
      expect(queuedWithoutMd5).toEqual([null]);
      const md5 = md5Of(file);
      const live = await server.liveFiles('big');
      expect(live.map((f) => [f.name, f.hash])).toEqual([['big.mp4', md5]]);
      const row = h.engine.listFiles()[0]!;
      expect(row).toMatchObject({ state: 'LIVE', md5, remoteMd5: md5 });
      const journal = h.db.prepare('SELECT md5, outcome FROM sync_journal').all();
      expect(journal).toEqual([{ md5, outcome: 'LIVE' }]);
    } finally {
      await h.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a file written while it is read is never stored torn: the body fails before its md5, and the new bytes go', async () => {
    const dir = tempDir();
    const file = join(dir, 'big.mp4');
    const size = HASH_WHILE_SENDING_BYTES + 4096;
    writeFileSync(file, randomFillSync(Buffer.alloc(size)));
    const past = new Date(Date.now() - 60_000);
    utimesSync(file, past, past);
    // Every copy the service stored, by the md5 of its reply.
    const client = testClient(server.baseUrl, server.demoKey);
    const upload = client.uploadFile.bind(client);
    const stored: string[] = [];
    client.uploadFile = async (input) => {
      const r = await upload(input);
      if (r.ok) stored.push(r.value.hash);
      return r;
    };
    const h = makeEngine(client);
    try {
      let written = false;
      h.engine.on('upload-progress', (e) => {
        if (written || e.sentBytes >= e.totalBytes) return;
        written = true;
        // Its first MiB (read already) and its last (not read yet): what this upload reads is then
        // neither version of the file.
        const fd = openSync(file, 'r+');
        const mib = 1024 * 1024;
        writeSync(fd, randomFillSync(Buffer.alloc(mib)), 0, mib, 0);
        writeSync(fd, randomFillSync(Buffer.alloc(mib)), 0, mib, size - mib);
        closeSync(fd);
      });
      await h.engine.start();
      expect((await h.engine.addFolder({ path: dir, bucket: 'torn' })).ok).toBe(true);
      expect((await h.engine.waitUntilSettled()).allDone).toBe(true);
      expect(written).toBe(true);
      const md5 = md5Of(file);
      expect(stored).toEqual([md5]);
      const live = await server.liveFiles('torn');
      expect(live.map((f) => [f.name, f.hash])).toEqual([['big.mp4', md5]]);
    } finally {
      await h.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a file of the same size as a live one is hashed first (it may be a rename)', async () => {
    const dir = tempDir();
    const bytes = randomFillSync(Buffer.alloc(HASH_WHILE_SENDING_BYTES));
    const past = new Date(Date.now() - 60_000);
    writeFileSync(join(dir, 'one.mp4'), bytes);
    utimesSync(join(dir, 'one.mp4'), past, past);
    const h = makeEngine(testClient(server.baseUrl, server.demoKey));
    try {
      await h.engine.start();
      await h.engine.addFolder({ path: dir, bucket: 'same-size' });
      await h.engine.waitUntilSettled();
      const other = Buffer.from(bytes);
      other[0] = (other[0]! + 1) % 256;
      writeFileSync(join(dir, 'two.mp4'), other);
      utimesSync(join(dir, 'two.mp4'), past, past);
      const md5s: (string | null)[] = [];
      h.engine.on('file', (e) => {
        if (e.to === 'QUEUED') md5s.push(h.engine.getFile(e.fileId)?.md5 ?? null);
      });
      await h.engine.stop();
      const again = makeEngine(testClient(server.baseUrl, server.demoKey), {}, h.appDir);
      again.engine.on('file', (e) => {
        if (e.to === 'QUEUED') md5s.push(again.engine.getFile(e.fileId)?.md5 ?? null);
      });
      await again.engine.start();
      expect((await again.engine.waitUntilSettled()).allDone).toBe(true);
      expect(md5s).toEqual([createHash('md5').update(other).digest('hex')]);
      await again.close();
    } finally {
      h.db.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
