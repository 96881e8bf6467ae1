// file-hosting-api.md, checked from outside: every endpoint, field, envelope, status and code, with the
// admin calls that make clients, keys and faults (reference-server.md). Rate limiting is off here
// (`--rate-limit-per-minute 0`); rate-limit.test.ts checks it.
import { createHash } from 'node:crypto';
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  disposeServer,
  IST_MINUTE,
  istOf,
  MD5,
  type Receiver,
  type Reply,
  type RunningServer,
  sortedKeys,
  startReceiver,
  startServer,
  uploadBuffered as upload,
  uploadForm,
  upload as uploadStreamed,
} from './harness';

const md5 = (b: Buffer | string) => createHash('md5').update(b).digest('hex');

const FILE_KEYS = [
  'bucket',
  'created_at',
  'extension',
  'hash',
  'id',
  'mime',
  'name',
  'size_bytes',
  'status',
  'url',
];
const ALLOWED =
  'pdf, doc, docx, odt, xls, xlsx, ods, ppt, pptx, txt, json, mp3, wav, m4a, aac, mp4, mkv, mov, wmv, avi, webm, 3gp, png, jpg, jpeg, gif, ico, webp, tiff, psd, bmp, svg, ai, ttf, eot, otf, woff, woff2'.split(
    ', ',
  );

let server: RunningServer;
let source: Receiver;

function expectFailure(reply: Reply, status: number, code: string) {
  expect({ status: reply.status, code: reply.json?.code }, reply.text).toEqual({ status, code });
  expect(sortedKeys(reply.json)).toEqual(['code', 'data', 'errors']);
  expect(reply.json.data).toBeNull();
  expect(Array.isArray(reply.json.errors)).toBe(true);
  expect(reply.json.errors.length).toBeGreaterThan(0);
  for (const e of reply.json.errors) expect(typeof e).toBe('string');
}

function expectFile(file: Record<string, unknown>) {
  expect(sortedKeys(file)).toEqual(FILE_KEYS);
  expect(Number.isInteger(file.id)).toBe(true);
  expect(typeof file.url).toBe('string');
  expect(file.bucket).toMatch(/^[a-z0-9][a-z0-9.-]{0,49}$/);
  expect(typeof file.name).toBe('string');
  expect(ALLOWED).toContain(file.extension);
  expect(typeof file.mime).toBe('string');
  expect(Number.isInteger(file.size_bytes)).toBe(true);
  expect(file.hash).toMatch(MD5);
  expect(['ACTIVE', 'DELETED']).toContain(file.status);
  expect(file.created_at).toMatch(IST_MINUTE);
}

async function newClient(body: Record<string, unknown> = {}) {
  const reply = await server.admin('POST', '/clients', { name: 'Client', ...body });
  expect(reply.status, reply.text).toBe(201);
  return { id: reply.json.client.id as number, key: reply.json.api_key as string, reply };
}

async function filesCount(key: string): Promise<number> {
  return (await server.api('GET', '/me', key)).json.data.usage.files_count;
}

beforeAll(async () => {
  server = await startServer(['--rate-limit-per-minute', '0']);
  source = await startReceiver();
});
afterAll(async () => {
  await disposeServer(server);
  await source?.close();
});

describe('admin: clients and keys', () => {
  it('POST /clients answers 201 {client: {id, name, status, default_bucket}, api_key, key_id}', async () => {
    const { reply } = await newClient({ name: 'Acme' });
    expect(sortedKeys(reply.json)).toEqual(['api_key', 'client', 'key_id']);
    expect(sortedKeys(reply.json.client)).toEqual(['default_bucket', 'id', 'name', 'status']);
    expect(reply.json.client).toMatchObject({ name: 'Acme', status: 'ACTIVE', default_bucket: 'default' });
    expect(Number.isInteger(reply.json.client.id)).toBe(true);
    expect(Number.isInteger(reply.json.key_id)).toBe(true);
    expect(typeof reply.json.api_key).toBe('string');
    const me = await server.api('GET', '/me', reply.json.api_key);
    expect(me.json.data.wallet.balance_paise).toBe(10_000);
  });

  it('POST /clients keeps the wallet and default bucket given; an invalid bucket is refused', async () => {
    const { key, reply } = await newClient({ wallet_paise: 7_000, default_bucket: 'media.v2' });
    expect(reply.json.client.default_bucket).toBe('media.v2');
    const me = await server.api('GET', '/me', key);
    expect(me.json.data.wallet.balance_paise).toBe(7_000);
    expect(me.json.data.client.default_bucket).toBe('media.v2');
    const up = await upload(server, key, { bytes: 'x', filename: 'a.txt' });
    expect(up.json.data.bucket).toBe('media.v2');

    const bad = await server.admin('POST', '/clients', { name: 'Bad', default_bucket: 'Bad_Bucket' });
    expect(bad.status).toBeGreaterThanOrEqual(400);
    expect(bad.status).toBeLessThan(500);
  });

  it('POST /clients/{id}/keys answers 201 {api_key, key_id}; DELETE /keys/{id} revokes it', async () => {
    const { id, key } = await newClient();
    const minted = await server.admin('POST', `/clients/${id}/keys`);
    expect(minted.status).toBe(201);
    expect(sortedKeys(minted.json)).toEqual(['api_key', 'key_id']);
    expect((await server.api('GET', '/me', minted.json.api_key)).status).toBe(200);

    const revoked = await server.admin('DELETE', `/keys/${minted.json.key_id}`);
    expect(revoked.status).toBe(200);
    expect(revoked.json).toEqual({ key_id: minted.json.key_id, revoked: true });
    expectFailure(await server.api('GET', '/me', minted.json.api_key), 401, 'UNAUTHENTICATED');
    expectFailure(await server.api('GET', '/files', minted.json.api_key), 401, 'UNAUTHENTICATED');
    // The other key of the client is untouched.
    expect((await server.api('GET', '/me', key)).status).toBe(200);
  });

  it('every admin call needs the admin token (401 when missing or wrong)', async () => {
    const calls: [string, string, unknown?][] = [
      ['POST', '/clients', { name: 'X' }],
      ['POST', '/clients/1/keys'],
      ['DELETE', '/keys/1'],
      ['POST', '/clients/1/wallet', { amount_paise: 100 }],
      ['GET', '/clock'],
      ['POST', '/clock/advance', { seconds: 1 }],
      ['POST', '/bots', { client_id: 1, name: 'b', business_name: 'b' }],
      ['PUT', '/bots/1', { webhook_url: null }],
      ['POST', '/bots/1/events', { event: 'LEAD-CAPTURED', lead: { name: 'a', email: 'b', phone: 'c' } }],
      ['GET', '/deliveries?bot_id=1'],
      ['PUT', '/faults', { storage_fail_rate: 0 }],
    ];
    for (const [method, path, body] of calls) {
      expect((await server.admin(method, path, body, null)).status, `${method} ${path}`).toBe(401);
      expect((await server.admin(method, path, body, 'not-the-token')).status, `${method} ${path}`).toBe(401);
    }
  });
});

describe('GET /me', () => {
  it('answers {data: Account} with every documented field and value', async () => {
    const { id, key } = await newClient({ name: 'Me Ltd' });
    const me = await server.api('GET', '/me', key);
    expect(me.status).toBe(200);
    expect(sortedKeys(me.json)).toEqual(['data']);
    const a = me.json.data;
    expect(sortedKeys(a)).toEqual(['arrears', 'client', 'pricing', 'usage', 'wallet']);
    expect(a.client).toEqual({ id, name: 'Me Ltd', status: 'ACTIVE', default_bucket: 'default' });
    expect(a.usage).toEqual({
      files_count: 0,
      bytes_used: 0,
      daily_rent_paise: 0,
      monthly_estimate_paise: 0,
    });
    expect(a.wallet).toEqual({ balance_paise: 10_000, min_balance_to_upload_paise: 5_000 });
    expect(a.arrears).toEqual({ paise: 0, since: null, deadline: null });
    expect(a.pricing).toEqual({
      per_gb_month_paise: 500,
      max_file_bytes: 209_715_200,
      allowed_extensions: ALLOWED,
      grace_days: 30,
    });
  });
});

describe('multipart upload, get, list, delete, CDN', () => {
  let client: { id: number; key: string };
  const files: Record<string, unknown>[] = [];

  beforeAll(async () => {
    client = await newClient();
  });

  it('POST /files answers 201 {data: File} ACTIVE, with a live CDN URL of the documented form', async () => {
    const bytes = Buffer.from('hello, conformance\n');
    const clock = await server.admin('GET', '/clock');
    const up = await upload(server, client.key, { bytes, filename: 'hello.txt' });
    expect(up.status, up.text).toBe(201);
    expect(sortedKeys(up.json)).toEqual(['data']);
    const f = up.json.data;
    expectFile(f);
    expect(f).toMatchObject({
      bucket: 'default',
      extension: 'txt',
      size_bytes: bytes.length,
      hash: md5(bytes),
      status: 'ACTIVE',
    });
    expect(f.mime).toMatch(/^text\/plain/);
    const later = await server.admin('GET', '/clock');
    expect([clock.json.ist, later.json.ist]).toContain(f.created_at);
    const prefix = `${server.ready.cdn_url}/storage/${client.id}/default/`;
    expect(f.url.startsWith(prefix), f.url).toBe(true);
    expect(f.url.slice(prefix.length)).toMatch(/^[^/]+-hello\.txt$/);

    const cdn = await fetch(f.url);
    expect(cdn.status).toBe(200);
    expect(Buffer.from(await cdn.arrayBuffer()).equals(bytes)).toBe(true);
    expect(cdn.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(cdn.headers.get('content-length')).toBe(String(bytes.length));
    files.push(f);
  });

  it('keeps the bucket and display name sent, and accepts a matching hash', async () => {
    const bytes = Buffer.from('{"a":1}');
    const up = await upload(server, client.key, {
      bytes,
      filename: 'data.json',
      bucket: 'reports-2024.q1',
      name: 'Quarter report',
      hash: md5(bytes),
    });
    expect(up.status, up.text).toBe(201);
    expectFile(up.json.data);
    expect(up.json.data).toMatchObject({
      bucket: 'reports-2024.q1',
      name: 'Quarter report',
      extension: 'json',
      hash: md5(bytes),
    });
    expect(up.json.data.url).toContain(`/storage/${client.id}/reports-2024.q1/`);
    files.push(up.json.data);
  });

  it('GET /files/{id} answers {data: File}, the same as the upload reply', async () => {
    for (const f of files) {
      const got = await server.api('GET', `/files/${f.id}`, client.key);
      expect(got.status).toBe(200);
      expect(got.json).toEqual({ data: f });
    }
  });

  it('GET /me counts the live files and their bytes', async () => {
    const me = await server.api('GET', '/me', client.key);
    expect(me.json.data.usage.files_count).toBe(2);
    expect(me.json.data.usage.bytes_used).toBe(files.reduce((n, f) => n + (f.size_bytes as number), 0));
  });

  it('GET /files lists live files newest first with meta {page, per_page, total, last_page}', async () => {
    for (let i = 0; i < 3; i++) {
      const up = await upload(server, client.key, { bytes: `n${i}`, filename: `n${i}.txt`, bucket: 'many' });
      files.push(up.json.data);
    }
    const list = await server.api('GET', '/files', client.key);
    expect(list.status).toBe(200);
    expect(sortedKeys(list.json)).toEqual(['data', 'meta']);
    expect(list.json.meta).toEqual({ page: 1, per_page: 25, total: 5, last_page: 1 });
    expect(list.json.data.map((f: { id: number }) => f.id)).toEqual(files.map((f) => f.id).reverse());
    for (const f of list.json.data) expectFile(f);

    const bucket = await server.api('GET', '/files?bucket=many', client.key);
    expect(bucket.json.meta.total).toBe(3);
    expect(bucket.json.data.every((f: { bucket: string }) => f.bucket === 'many')).toBe(true);

    const page2 = await server.api('GET', '/files?per_page=2&page=2', client.key);
    expect(page2.json.meta).toEqual({ page: 2, per_page: 2, total: 5, last_page: 3 });
    expect(page2.json.data.map((f: { id: number }) => f.id)).toEqual([files[2]!.id, files[1]!.id]);
    const beyond = await server.api('GET', '/files?per_page=2&page=9', client.key);
    expect(beyond.status).toBe(200);
    expect(beyond.json.data).toEqual([]);
    expect(beyond.json.meta).toMatchObject({ page: 9, per_page: 2, total: 5, last_page: 3 });
  });

  it('clamps per_page to 1-100', async () => {
    const low = await server.api('GET', '/files?per_page=0', client.key);
    expect(low.status).toBe(200);
    expect(low.json.meta.per_page).toBe(1);
    expect(low.json.data).toHaveLength(1);
    const high = await server.api('GET', '/files?per_page=1000', client.key);
    expect(high.status).toBe(200);
    expect(high.json.meta.per_page).toBe(100);
  });

  it('non-numeric list parameters never crash (200 or 422 VALIDATION)', async () => {
    for (const q of ['per_page=abc', 'page=abc', 'page=0', 'page=-1', 'per_page=1.5']) {
      const r = await server.api('GET', `/files?${q}`, client.key);
      if (r.status === 200) expect(sortedKeys(r.json)).toEqual(['data', 'meta']);
      else expectFailure(r, 422, 'VALIDATION');
    }
  });

  it('DELETE /files/{id} answers 202 {data: {id, status: DELETED}}, idempotently; the file is gone', async () => {
    const f = files[0]!;
    const del = await server.api('DELETE', `/files/${f.id}`, client.key);
    expect(del.status).toBe(202);
    expect(del.json).toEqual({ data: { id: f.id, status: 'DELETED' } });
    const again = await server.api('DELETE', `/files/${f.id}`, client.key);
    expect(again.status).toBe(202);
    expect(again.json).toEqual({ data: { id: f.id, status: 'DELETED' } });

    expectFailure(await server.api('GET', `/files/${f.id}`, client.key), 410, 'GONE');
    const list = await server.api('GET', '/files', client.key);
    expect(list.json.data.map((x: { id: number }) => x.id)).not.toContain(f.id);
    expect(list.json.meta.total).toBe(4);
    expect((await fetch(f.url as string)).status).not.toBe(200);
    expect(await filesCount(client.key)).toBe(4);
  });

  it('another client sees none of it: 410 GONE for get and delete, an empty list', async () => {
    const other = await newClient();
    const f = files[1]!;
    expectFailure(await server.api('GET', `/files/${f.id}`, other.key), 410, 'GONE');
    expectFailure(await server.api('DELETE', `/files/${f.id}`, other.key), 410, 'GONE');
    const list = await server.api('GET', '/files', other.key);
    expect(list.json.data).toEqual([]);
    expect(list.json.meta.total).toBe(0);
    // Still the owner's.
    expect((await server.api('GET', `/files/${f.id}`, client.key)).status).toBe(200);
  });

  it('an id that never existed, or is not an integer, answers 410 GONE or 422, never 404', async () => {
    expectFailure(await server.api('GET', '/files/987654', client.key), 410, 'GONE');
    expectFailure(await server.api('DELETE', '/files/987654', client.key), 410, 'GONE');
    for (const id of ['abc', '-1', '1.5', '0']) {
      const r = await server.api('GET', `/files/${id}`, client.key);
      expect([410, 422], `${id}: ${r.text}`).toContain(r.status);
      expectFailure(r, r.status, r.status === 410 ? 'GONE' : 'VALIDATION');
    }
  });

  it('no path under /api/assets/v1 answers 404', async () => {
    for (const [method, path] of [
      ['GET', '/nope'],
      ['GET', '/files/1/extra'],
      ['POST', '/me'],
    ] as const) {
      const r = await server.api(method, path, client.key);
      expect(r.status, `${method} ${path}`).not.toBe(404);
      expect(r.status).toBeLessThan(500);
      expect(r.json?.data).toBeNull();
      expect(typeof r.json?.code).toBe('string');
    }
  });
});

describe('awkward input never crashes or escapes', () => {
  let key: string;
  let clientId: number;
  beforeAll(async () => {
    ({ key, id: clientId } = await newClient({ wallet_paise: 100_000 }));
  });

  it('file names with spaces, unicode, path separators or `..` are stored safely and served', async () => {
    for (const filename of [
      'my report (final).pdf',
      'रिपोर्ट 2024.pdf',
      '../../etc/passwd.txt',
      'a/b\\c.txt',
    ]) {
      const bytes = Buffer.from(`bytes of ${filename}`);
      const up = await upload(server, key, { bytes, filename });
      expect(up.status, `${filename}: ${up.text}`).toBe(201);
      expectFile(up.json.data);
      const url = new URL(up.json.data.url);
      expect(url.pathname.startsWith(`/storage/${clientId}/default/`), url.pathname).toBe(true);
      expect(decodeURIComponent(url.pathname)).not.toContain('/../');
      const cdn = await fetch(up.json.data.url);
      expect(cdn.status, `${filename} -> ${up.json.data.url}`).toBe(200);
      expect(Buffer.from(await cdn.arrayBuffer()).equals(bytes)).toBe(true);
    }
  });

  it('the display name keeps what was sent', async () => {
    const name = 'Clients/Acme/रिपोर्ट ../final.txt';
    const up = await upload(server, key, { bytes: 'n', filename: 'final.txt', name });
    expect(up.status).toBe(201);
    expect(up.json.data.name).toBe(name);
    expect((await server.api('GET', `/files/${up.json.data.id}`, key)).json.data.name).toBe(name);
  });

  it('the same file uploaded twice is two files with two live URLs', async () => {
    const a = await upload(server, key, { bytes: 'first', filename: 'same.txt' });
    const b = await upload(server, key, { bytes: 'second', filename: 'same.txt' });
    expect(a.json.data.id).not.toBe(b.json.data.id);
    expect(a.json.data.url).not.toBe(b.json.data.url);
    expect(await (await fetch(a.json.data.url)).text()).toBe('first');
    expect(await (await fetch(b.json.data.url)).text()).toBe('second');
  });

  it('two file fields, or a body that is neither multipart nor JSON, answer a 4xx envelope', async () => {
    const form = uploadForm({ bytes: 'one', filename: 'one.txt' });
    form.append('file', new Blob([new Uint8Array(Buffer.from('two'))]), 'two.txt');
    const encoded = new Response(form);
    const two = await fetch(`${server.ready.base_url}/api/assets/v1/files`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': encoded.headers.get('content-type')! },
      body: Buffer.from(await encoded.arrayBuffer()),
    });
    const twoJson = await two.json();
    expect(two.status).toBe(422);
    expect(twoJson.code).toBe('VALIDATION');
    const before = await filesCount(key);
    const plain = await fetch(`${server.ready.base_url}/api/assets/v1/files`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'text/plain' },
      body: 'just text',
    });
    const plainJson = await plain.json();
    expect(plain.status).toBeGreaterThanOrEqual(400);
    expect(plain.status).toBeLessThan(500);
    expect(plainJson.data).toBeNull();
    expect(typeof plainJson.code).toBe('string');
    expect(await filesCount(key)).toBe(before);
  });
});

describe('authentication', () => {
  it('a missing, malformed or unknown key answers 401 UNAUTHENTICATED on every endpoint', async () => {
    const base = `${server.ready.base_url}/api/assets/v1`;
    const headers: (Record<string, string> | undefined)[] = [
      undefined,
      { authorization: 'Basic dXNlcjpwYXNz' },
      { authorization: 'Bearer' },
      { authorization: 'Bearer not-a-key' },
      { authorization: 'token abc' },
    ];
    for (const h of headers) {
      for (const [method, path] of [
        ['GET', '/me'],
        ['GET', '/files'],
        ['GET', '/files/1'],
        ['DELETE', '/files/1'],
        ['GET', '/usage?days=7'],
        ['POST', '/files'],
      ] as const) {
        const res = await fetch(`${base}${path}`, { method, ...(h ? { headers: h } : {}) });
        const json = await res.json();
        expect({ status: res.status, code: json.code }, `${method} ${path} ${JSON.stringify(h)}`).toEqual({
          status: 401,
          code: 'UNAUTHENTICATED',
        });
        expect(json.data).toBeNull();
      }
    }
  });
});

describe('upload checks (section 7): nothing stored on failure', () => {
  let key: string;
  beforeAll(async () => {
    key = (await newClient()).key;
  });

  it('415 EXTENSION-NOT-ALLOWED for an extension off the allow-list (and for none)', async () => {
    for (const filename of ['run.exe', 'archive.zip', 'noextension']) {
      expectFailure(await upload(server, key, { bytes: 'x', filename }), 415, 'EXTENSION-NOT-ALLOWED');
    }
    expect(await filesCount(key)).toBe(0);
  });

  it('accepts every allowed extension, whatever its case', async () => {
    const other = await newClient({ wallet_paise: 100_000 });
    for (const ext of ['PDF', 'woff2', '3gp', 'Jpeg']) {
      const r = await upload(server, other.key, { bytes: 'x', filename: `f.${ext}` });
      expect(r.status, `${ext}: ${r.text}`).toBe(201);
    }
  });

  it('413 FILE-TOO-LARGE for an empty file', async () => {
    expectFailure(await upload(server, key, { bytes: '', filename: 'empty.txt' }), 413, 'FILE-TOO-LARGE');
    expect(await filesCount(key)).toBe(0);
  });

  it('422 HASH-MISMATCH when the md5 sent does not match', async () => {
    const r = await upload(server, key, { bytes: 'abc', filename: 'a.txt', hash: md5('abd') });
    expectFailure(r, 422, 'HASH-MISMATCH');
    expect(await filesCount(key)).toBe(0);
    expect((await server.api('GET', '/files', key)).json.meta.total).toBe(0);
  });

  it('422 BUCKET-INVALID for a bucket off the pattern; 50 characters are fine, 51 are not', async () => {
    for (const bucket of ['Upper', 'under_score', '-lead', '.lead', 'a'.repeat(51), 'sp ace', '']) {
      const r = await upload(server, key, { bytes: 'x', filename: 'a.txt', bucket });
      expectFailure(r, 422, 'BUCKET-INVALID');
    }
    expect(await filesCount(key)).toBe(0);
    const ok = await upload(server, key, { bytes: 'x', filename: 'a.txt', bucket: `a${'b'.repeat(49)}` });
    expect(ok.status).toBe(201);
    await server.api('DELETE', `/files/${ok.json.data.id}`, key);
  });

  it('422 VALIDATION when the multipart form has no file', async () => {
    const r = await upload(server, key, { bucket: 'default', name: 'nothing' });
    expectFailure(r, 422, 'VALIDATION');
  });

  it('422 VALIDATION for malformed JSON or a JSON body without source_url', async () => {
    expectFailure(await server.api('POST', '/files', key, '{"source_url": '), 422, 'VALIDATION');
    expectFailure(await server.api('POST', '/files', key, { bucket: 'default' }), 422, 'VALIDATION');
    expectFailure(await server.api('POST', '/files', key, { source_url: 42 }), 422, 'VALIDATION');
    expect(await filesCount(key)).toBe(0);
  });

  it('a body past 209,715,200 bytes answers 413 FILE-TOO-LARGE and nothing is stored', async () => {
    const limit = 209_715_200;
    const boundary = 'conformance-boundary';
    const head = Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.txt"\r\n` +
        'Content-Type: text/plain\r\n\r\n',
    );
    const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
    const chunk = Buffer.alloc(1024 * 1024, 97);
    const total = limit + 1;
    const url = new URL(`${server.ready.base_url}/api/assets/v1/files`);
    const status = await new Promise<{ status: number; body: string }>((done, fail) => {
      const req = request(
        url,
        {
          method: 'POST',
          headers: {
            authorization: `Bearer ${key}`,
            'content-type': `multipart/form-data; boundary=${boundary}`,
            'content-length': head.length + total + tail.length,
          },
        },
        (res) => {
          let body = '';
          res.setEncoding('utf8').on('data', (c: string) => {
            body += c;
          });
          res.on('end', () => done({ status: res.statusCode ?? 0, body }));
        },
      );
      // The server may stop reading at the limit and close: the reply already came, the write error is moot.
      req.on('error', (e) => fail(e));
      let sent = 0;
      const pump = () => {
        while (sent < total) {
          const n = Math.min(chunk.length, total - sent);
          sent += n;
          if (!req.write(n === chunk.length ? chunk : chunk.subarray(0, n))) {
            req.once('drain', pump);
            return;
          }
        }
        req.end(tail);
      };
      req.write(head);
      pump();
    });
    expect(status.status, status.body).toBe(413);
    expect(JSON.parse(status.body).code).toBe('FILE-TOO-LARGE');
    expect(await filesCount(key)).toBe(0);
  });
});

describe('early refusals of a streamed multipart upload', () => {
  // fetch streams a FormData body in several writes. A refusal decided before the body is read (bucket,
  // wallet, key) must still reach the client as the documented reply, not as a dropped connection: the
  // app's uploader branches on these codes.
  it('a small (64 KiB) streamed upload gets its 422/402/401 reply, not a reset connection', async () => {
    const { key } = await newClient();
    const poor = await newClient({ wallet_paise: 100 });
    // 64 KiB: small enough that reading it costs nothing, large enough that fetch is still writing.
    const small = Buffer.alloc(64 * 1024, 120);
    const cases: [string, string, Parameters<typeof uploadStreamed>[2], number, string][] = [
      ['bad bucket', key, { bucket: 'Bad_Bucket', bytes: small, filename: 'a.txt' }, 422, 'BUCKET-INVALID'],
      ['low balance', poor.key, { bytes: small, filename: 'a.txt' }, 402, 'LOW-BALANCE'],
      ['bad key', 'not-a-key', { bytes: small, filename: 'a.txt' }, 401, 'UNAUTHENTICATED'],
    ];
    const outcomes: string[] = [];
    for (const [what, k, fields, status, code] of cases) {
      // The reset is a race with the client's writes: ten tries each make a pass meaningful.
      for (let i = 0; i < 10; i++) {
        const got = await uploadStreamed(server, k, fields).then(
          (r) => `${r.status} ${r.json?.code}`,
          (e: Error) => `${e.message}: ${(e.cause as Error | undefined)?.message}`,
        );
        if (got !== `${status} ${code}`) outcomes.push(`${what} #${i + 1}: ${got}`);
      }
    }
    expect(outcomes).toEqual([]);
  });
});

describe('upload from a URL (source_url)', () => {
  let key: string;
  beforeAll(async () => {
    key = (await newClient()).key;
  });

  it('downloads the URL and answers {data: File}, live at once', async () => {
    source.respond = 200;
    source.payload = Buffer.from('%PDF-1.4 fake pdf bytes');
    const r = await server.api('POST', '/files', key, {
      source_url: `${source.url}/docs/brochure.pdf`,
      bucket: 'imports',
      hash: md5(source.payload),
    });
    expect(r.status, r.text).toBeGreaterThanOrEqual(200);
    expect(r.status).toBeLessThan(300);
    expect(sortedKeys(r.json)).toEqual(['data']);
    expectFile(r.json.data);
    expect(r.json.data).toMatchObject({
      bucket: 'imports',
      extension: 'pdf',
      size_bytes: source.payload.length,
      hash: md5(source.payload),
      status: 'ACTIVE',
    });
    expect(r.json.data.url).toMatch(/-brochure\.pdf$/);
    const cdn = await fetch(r.json.data.url);
    expect(cdn.status).toBe(200);
    expect(Buffer.from(await cdn.arrayBuffer()).equals(source.payload)).toBe(true);
  });

  it('422 SOURCE-UNREACHABLE when the URL does not answer 200 with a body', async () => {
    const before = await filesCount(key);
    source.respond = 404;
    source.payload = Buffer.from('not here');
    expectFailure(
      await server.api('POST', '/files', key, { source_url: `${source.url}/missing.pdf` }),
      422,
      'SOURCE-UNREACHABLE',
    );
    source.respond = 204;
    expectFailure(
      await server.api('POST', '/files', key, { source_url: `${source.url}/nobody.pdf` }),
      422,
      'SOURCE-UNREACHABLE',
    );
    source.respond = 500;
    expectFailure(
      await server.api('POST', '/files', key, { source_url: `${source.url}/broken.pdf` }),
      422,
      'SOURCE-UNREACHABLE',
    );
    // A port nobody listens on (the receiver's, once closed, would race; port 9 is discard, unused here).
    expectFailure(
      await server.api('POST', '/files', key, { source_url: 'http://127.0.0.1:9/x.pdf' }),
      422,
      'SOURCE-UNREACHABLE',
    );
    expect(await filesCount(key)).toBe(before);
  });

  it('applies the extension, bucket and hash rules to URL uploads', async () => {
    const before = await filesCount(key);
    source.respond = 200;
    source.payload = Buffer.from('bytes');
    expectFailure(
      await server.api('POST', '/files', key, { source_url: `${source.url}/tool.exe` }),
      415,
      'EXTENSION-NOT-ALLOWED',
    );
    expectFailure(
      await server.api('POST', '/files', key, { source_url: `${source.url}/a.txt`, bucket: 'NO' }),
      422,
      'BUCKET-INVALID',
    );
    expectFailure(
      await server.api('POST', '/files', key, { source_url: `${source.url}/a.txt`, hash: md5('other') }),
      422,
      'HASH-MISMATCH',
    );
    expect(await filesCount(key)).toBe(before);
  });
});

describe('wallet floor and usage', () => {
  it('402 LOW-BALANCE under 5,000 paise; reads keep working; 5,000 is enough', async () => {
    const poor = await newClient({ wallet_paise: 4_999 });
    expectFailure(await upload(server, poor.key, { bytes: 'x', filename: 'a.txt' }), 402, 'LOW-BALANCE');
    expectFailure(
      await server.api('POST', '/files', poor.key, { source_url: `${source.url}/a.txt` }),
      402,
      'LOW-BALANCE',
    );
    expect((await server.api('GET', '/me', poor.key)).status).toBe(200);
    expect((await server.api('GET', '/files', poor.key)).status).toBe(200);
    const enough = await newClient({ wallet_paise: 5_000 });
    expect((await upload(server, enough.key, { bytes: 'x', filename: 'a.txt' })).status).toBe(201);
  });

  it('GET /usage answers {data: [], meta: {days, count}}; days outside 1-90 is 422 VALIDATION', async () => {
    const { key } = await newClient();
    for (const days of [1, 7, 90]) {
      const r = await server.api('GET', `/usage?days=${days}`, key);
      expect(r.status).toBe(200);
      expect(r.json).toEqual({ data: [], meta: { days, count: 0 } });
    }
    const byDefault = await server.api('GET', '/usage', key);
    expect(byDefault.status).toBe(200);
    expect(sortedKeys(byDefault.json)).toEqual(['data', 'meta']);
    expect(sortedKeys(byDefault.json.meta)).toEqual(['count', 'days']);
    for (const days of ['0', '91', 'abc', '-3', '2.5']) {
      expectFailure(await server.api('GET', `/usage?days=${days}`, key), 422, 'VALIDATION');
    }
  });
});

describe('faults (PUT /__admin/v1/faults)', () => {
  it('storage_fail_rate 1: uploads answer 502 STORAGE-FAILED and nothing is stored', async () => {
    const { key } = await newClient();
    const set = await server.admin('PUT', '/faults', { storage_fail_rate: 1 });
    expect(set.status).toBe(200);
    expect(set.json).toMatchObject({ storage_fail_rate: 1 });
    try {
      expectFailure(await upload(server, key, { bytes: 'abc', filename: 'a.txt' }), 502, 'STORAGE-FAILED');
      expect(await filesCount(key)).toBe(0);
    } finally {
      const cleared = await server.admin('PUT', '/faults', {
        storage_fail_rate: 0,
        connection_reset_rate: 0,
      });
      expect(cleared.json).toMatchObject({ storage_fail_rate: 0, connection_reset_rate: 0 });
    }
    expect((await upload(server, key, { bytes: 'abc', filename: 'a.txt' })).status).toBe(201);
  });

  it('connection_reset_rate 1: the upload connection drops and nothing is stored', async () => {
    const { key } = await newClient();
    const set = await server.admin('PUT', '/faults', { connection_reset_rate: 1 });
    expect(set.status).toBe(200);
    expect(set.json).toMatchObject({ connection_reset_rate: 1 });
    try {
      await expect(upload(server, key, { bytes: 'abc', filename: 'a.txt' })).rejects.toThrow();
    } finally {
      await server.admin('PUT', '/faults', { storage_fail_rate: 0, connection_reset_rate: 0 });
    }
    expect(await filesCount(key)).toBe(0);
  });

  it('refuses rates outside 0-1 with a 4xx (never a 500)', async () => {
    for (const body of [
      { storage_fail_rate: 1.5 },
      { connection_reset_rate: -0.1 },
      { storage_fail_rate: 'x' },
    ]) {
      const r = await server.admin('PUT', '/faults', body);
      expect(r.status, JSON.stringify(body)).toBeGreaterThanOrEqual(400);
      expect(r.status).toBeLessThan(500);
    }
  });
});

describe('IST dates', () => {
  it('GET /__admin/v1/clock answers {now (ISO 8601 UTC), ist (YYYY-MM-DD HH:MM)} that agree', async () => {
    const r = await server.admin('GET', '/clock');
    expect(r.status).toBe(200);
    expect(sortedKeys(r.json)).toEqual(['ist', 'now']);
    expect(r.json.now).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/);
    expect(r.json.ist).toBe(istOf(new Date(r.json.now)));
  });
});
