import fc from 'fast-check';

/**
 * Generated HTTP/1.1 requests as raw bytes: request lines, headers, framing and bodies a client
 * library would never send. Each server's test says which paths, header sets and body shapes
 * reach its code; the rest is junk on purpose.
 */
export interface RawRequest {
  bytes: Buffer;
  /**
   * The framing leaves the server waiting for more (a Content-Length past the body, chunks without
   * the last one, no blank line after the headers, or framing headers the generator cannot vouch
   * for): the sender ends its side right after the bytes.
   */
  openEnded: boolean;
}

export interface HttpTarget {
  /** Host header value that the server accepts. */
  host: string;
  /** Paths (with queries) that reach the server's routes. */
  paths: readonly string[];
  /** Header sets that get past its access checks (tokens, keys, Origin). */
  credentials: readonly Record<string, string>[];
  /** Bodies shaped like what its routes read (JSON objects with its field names). */
  bodies: fc.Arbitrary<Buffer>;
  /** Headers computed from the body, e.g. a valid signature; applied when `signed` is drawn. */
  sign?: (body: Buffer) => Record<string, string>;
}

/** A raw request that fast-check prints as readable, shortened text in a counterexample. */
export function rawRequest(bytes: Buffer, openEnded: boolean): RawRequest {
  return {
    bytes,
    openEnded,
    [fc.toStringMethod]: () =>
      `${openEnded ? 'open-ended ' : ''}${JSON.stringify(bytes.toString('latin1').slice(0, 400))}${bytes.length > 400 ? `... (${bytes.length} bytes)` : ''}`,
  } as RawRequest;
}

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS', 'TRACE', 'CONNECT'];

const junkChar = fc.constantFrom(
  '%',
  '%f',
  '%ff',
  '%00',
  '%2e%2e/',
  '%2F',
  '%zz',
  '%E0%A4%A',
  '%C0%AF',
  '[',
  ']',
  '//[',
  '\\',
  '..',
  '/',
  '?',
  '#',
  '&',
  '=',
  ';',
  '@',
  ':',
  '~',
  '*',
  'é',
  '\u202e',
  '\u0000',
  '\t',
  ' ',
  'a',
  '9',
);
const junkText = (max: number) => fc.array(junkChar, { maxLength: max }).map((a) => a.join(''));

/** Bytes of any value 0-255, latin1-encoded into the string (headers and request lines are bytes). */
const anyBytes = (max: number) =>
  fc.uint8Array({ maxLength: max }).map((a) => Buffer.from(a).toString('latin1'));

export const methodArb = fc.oneof(
  { weight: 8, arbitrary: fc.constantFrom(...METHODS) },
  { weight: 1, arbitrary: fc.stringMatching(/^[A-Z]{1,12}$/) },
  { weight: 1, arbitrary: anyBytes(12) },
);

function targetArb(t: HttpTarget) {
  const path = fc.constantFrom(...t.paths);
  return fc.oneof(
    { weight: 5, arbitrary: path },
    { weight: 5, arbitrary: fc.tuple(path, junkText(8)).map(([p, j]) => p + j) },
    { weight: 2, arbitrary: fc.tuple(path, junkText(6)).map(([p, j]) => `${p}?${j}=${j}`) },
    {
      weight: 2,
      arbitrary: fc.constantFrom(
        '//[',
        '//[x',
        'http://[',
        'http://[/ws',
        '*',
        '',
        'http://',
        '/[',
        '//',
        'x',
      ),
    },
    { weight: 1, arbitrary: fc.tuple(path, junkText(4)).map(([p, j]) => `http://${t.host}${p}${j}`) },
    {
      weight: 1,
      arbitrary: fc.tuple(path, fc.integer({ min: 1, max: 20_000 })).map(([p, n]) => p + 'a'.repeat(n)),
    },
    { weight: 1, arbitrary: anyBytes(40) },
  );
}

const versionArb = fc.oneof(
  { weight: 12, arbitrary: fc.constant('HTTP/1.1') },
  {
    weight: 1,
    arbitrary: fc.constantFrom('HTTP/1.0', 'HTTP/2.0', 'HTTP/0.9', 'HTTP/9.9', 'HTTP/1.1x', '', 'FOO'),
  },
);

type Header = [string, string];

const headerNameArb = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.constantFrom(
      'Accept',
      'Content-Type',
      'Cookie',
      'Origin',
      'Referer',
      'Range',
      'If-None-Match',
      'Authorization',
      'X-Forwarded-For',
      'Sec-WebSocket-Protocol',
      'Expect',
      'Upgrade',
      'Connection',
    ),
  },
  { weight: 2, arbitrary: fc.stringMatching(/^[A-Za-z0-9-]{1,20}$/) },
  { weight: 1, arbitrary: fc.constantFrom('Bad Name', 'Bad:Name', 'Bad\u0000', 'Ünï', '', ' Host') },
);
const headerValueArb = fc.oneof(
  { weight: 4, arbitrary: junkText(10) },
  { weight: 1, arbitrary: anyBytes(30).map((s) => s.replace(/\r\n/g, '')) },
  { weight: 1, arbitrary: fc.integer({ min: 1, max: 40_000 }).map((n) => 'v'.repeat(n)) },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      'application/json',
      'multipart/form-data; boundary=XyZ',
      'multipart/form-data',
      'text/plain',
      'application/json; charset=utf-16',
      '100-continue',
      'websocket',
      'upgrade',
      'bytes=0-1',
      'bytes=99999999999-',
    ),
  },
);
/** Headers that change how the body is framed: the request is then sent open-ended. */
const framingHeaderArb: fc.Arbitrary<Header> = fc.oneof(
  fc.constantFrom<Header>(
    ['Content-Length', '-1'],
    ['Content-Length', 'abc'],
    ['Content-Length', '1,2'],
    ['Content-Length', '99999999999999999999'],
    ['Content-Length', '0x10'],
    ['Content-Length', ' 5 '],
    ['Content-Length', '3'],
    ['Transfer-Encoding', 'chunked'],
    ['Transfer-Encoding', 'gzip'],
    ['Transfer-Encoding', 'chunked, chunked'],
    ['Transfer-Encoding', 'identity'],
    ['Transfer-Encoding', 'x'],
  ),
);

const CHUNK_JUNK = [
  'zz\r\n',
  '5\r\nab\r\n',
  'fffffffffffffffff\r\n',
  '3;ext=1\r\nabc\r\n',
  '-1\r\n',
  '0\r\nX: y\r\n\r\n',
];

const cleanHeaderArb: fc.Arbitrary<Header> = fc.tuple(
  fc.constantFrom(
    'Accept',
    'Content-Type',
    'Cookie',
    'Range',
    'If-None-Match',
    'X-Forwarded-For',
    'User-Agent',
  ),
  fc.oneof(
    fc.stringMatching(/^[ -~]{0,40}$/),
    fc.constantFrom('application/json', 'bytes=0-1', 'multipart/form-data; boundary=XyZ'),
  ),
);

/**
 * A request for `t`, as bytes: half are well-formed (a route's path, valid headers, the
 * credentials, a body of the route's shape, honest framing) so they reach the handlers with bad
 * values; half break the request line, the headers or the framing so they reach the parser's and
 * the server's error paths.
 */
export function requestArb(t: HttpTarget): fc.Arbitrary<RawRequest> {
  const clean = fc.record({
    method: fc.constantFrom('GET', 'POST', 'POST', 'POST', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD'),
    target: fc.oneof(
      { weight: 3, arbitrary: fc.constantFrom(...t.paths) },
      { weight: 1, arbitrary: targetArb(t) },
    ),
    version: fc.constant('HTTP/1.1'),
    withHost: fc.constant(true),
    hostValue: fc.constant(t.host),
    credentials: fc.option(fc.constantFrom(...t.credentials), { freq: 8, nil: undefined }),
    extra: fc.array(cleanHeaderArb, { maxLength: 3 }),
    framingHeaders: fc.constant(undefined),
    duplicateHost: fc.constant(false),
    body: fc.oneof(
      { weight: 1, arbitrary: fc.constant(Buffer.alloc(0)) },
      { weight: 6, arbitrary: t.bodies },
      { weight: 1, arbitrary: multipartArb },
    ),
    framing: fc.constantFrom('length', 'length', 'length', 'chunked'),
    signed: fc.nat({ max: 9 }).map((n) => n > 0),
    truncateHeaders: fc.constant(false),
  });
  const junk = fc.record({
    method: methodArb,
    target: targetArb(t),
    version: versionArb,
    withHost: fc.nat({ max: 9 }).map((n) => n > 0),
    hostValue: fc.oneof(
      { weight: 6, arbitrary: fc.constant(t.host) },
      { weight: 1, arbitrary: fc.constantFrom('evil.example', '', '[', `${t.host}:1`, 'localhost') },
    ),
    credentials: fc.option(fc.constantFrom(...t.credentials), { freq: 4, nil: undefined }),
    extra: fc.array(fc.tuple(headerNameArb, headerValueArb), { maxLength: 6 }),
    framingHeaders: fc.option(fc.array(framingHeaderArb, { minLength: 1, maxLength: 3 }), {
      freq: 3,
      nil: undefined,
    }),
    duplicateHost: fc.nat({ max: 9 }).map((n) => n === 0),
    body: fc.oneof(
      { weight: 3, arbitrary: fc.constant(Buffer.alloc(0)) },
      { weight: 4, arbitrary: t.bodies },
      { weight: 2, arbitrary: fc.uint8Array({ maxLength: 2048 }).map((a) => Buffer.from(a)) },
      { weight: 2, arbitrary: multipartArb },
    ),
    framing: fc.constantFrom('length', 'length', 'chunked', 'none', 'lying', 'short', 'chunk-junk'),
    signed: fc.boolean(),
    truncateHeaders: fc.nat({ max: 20 }).map((n) => n === 0),
  });
  return fc.oneof(clean, junk).map((r) => {
    const headers: Header[] = [];
    if (r.withHost) headers.push(['Host', r.hostValue]);
    if (r.duplicateHost) headers.push(['Host', 'other.example']);
    if (r.credentials) headers.push(...Object.entries(r.credentials));
    if (r.signed && t.sign) headers.push(...Object.entries(t.sign(r.body)));
    headers.push(...r.extra);
    let openEnded = false;
    let body = r.body;
    if (r.framingHeaders) {
      headers.push(...r.framingHeaders);
      openEnded = true;
    } else if (r.framing === 'length') headers.push(['Content-Length', String(body.length)]);
    else if (r.framing === 'lying') {
      headers.push(['Content-Length', String(body.length + 1 + (body.length % 7))]);
      openEnded = true;
    } else if (r.framing === 'short') {
      // The rest of the body reads as a second, pipelined request: junk to the parser.
      headers.push(['Content-Length', String(Math.floor(body.length / 2))]);
      openEnded = true;
    } else if (r.framing === 'chunked' || r.framing === 'chunk-junk') {
      headers.push(['Transfer-Encoding', 'chunked']);
      const chunks = body.length ? `${body.length.toString(16)}\r\n${body.toString('latin1')}\r\n` : '';
      const tail = r.framing === 'chunked' ? '0\r\n\r\n' : CHUNK_JUNK[body.length % CHUNK_JUNK.length]!;
      body = Buffer.from(chunks + tail, 'latin1');
      if (r.framing === 'chunk-junk') openEnded = true;
    } else if (body.length > 0) openEnded = true;
    const head =
      `${r.method} ${r.target} ${r.version}`.trimEnd() +
      '\r\n' +
      headers.map(([k, v]) => `${k}: ${v}\r\n`).join('') +
      (r.truncateHeaders ? '' : '\r\n');
    if (r.truncateHeaders) openEnded = true;
    // A broken request line or version can leave Node's parser in any state: end the input too.
    if (!/^HTTP\/1\.[01]$/.test(r.version) || !METHODS.includes(r.method)) openEnded = true;
    return rawRequest(Buffer.concat([Buffer.from(head, 'latin1'), body]), openEnded);
  });
}

/** multipart/form-data bodies, whole or cut off, with odd part headers. */
export const multipartArb: fc.Arbitrary<Buffer> = fc
  .record({
    boundary: fc.constantFrom('XyZ', 'XyZ', 'XyZ', 'b', ''),
    parts: fc.array(
      fc.record({
        name: fc.constantFrom('file', 'file', 'bucket', 'name', 'hash', 'source_url', 'x', ''),
        filename: fc.option(
          fc.constantFrom('a.txt', 'a.exe', '', '../../a.png', 'é\u202e.jpg', 'a'.repeat(300)),
          {
            nil: undefined,
          },
        ),
        content: fc.oneof(junkText(20), fc.constantFrom('site', 'hello', '0'.repeat(32), '')),
      }),
      { maxLength: 4 },
    ),
    cut: fc.nat({ max: 200 }),
    close: fc.boolean(),
  })
  .map(({ boundary, parts, cut, close }) => {
    const text =
      parts
        .map(
          (p) =>
            `--${boundary}\r\nContent-Disposition: form-data; name="${p.name}"` +
            `${p.filename === undefined ? '' : `; filename="${p.filename}"`}\r\n\r\n${p.content}\r\n`,
        )
        .join('') + (close ? `--${boundary}--\r\n` : '');
    return Buffer.from(cut > 0 && cut < text.length ? text.slice(0, cut) : text);
  });

/** A JSON object with some of `keys`, each holding any JSON value or a value from `good`, as text (sometimes cut). */
export function jsonBodyArb(
  keys: readonly string[],
  good: fc.Arbitrary<unknown> = fc.constant(1),
): fc.Arbitrary<Buffer> {
  const value = fc.oneof(
    fc.jsonValue({ maxDepth: 2 }),
    good,
    fc.constantFrom(-1, 0, 1e308, 2 ** 53, '', null, [], {}),
  );
  const object = fc.dictionary(fc.oneof(fc.constantFrom(...keys), fc.string({ maxLength: 6 })), value, {
    maxKeys: 6,
  });
  return fc
    .tuple(
      fc.oneof({ weight: 4, arbitrary: object }, { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }) }),
      fc.nat({ max: 10 }),
    )
    .map(([v, cut]) => {
      const text = JSON.stringify(v) ?? 'null';
      // One in ten cut short: a JSON parser's error path.
      return Buffer.from(cut === 0 ? text.slice(0, Math.max(1, text.length >> 1)) : text);
    });
}

/**
 * Bodies shaped like lead deliveries (the lead receiver's and the relay's): some fields right, some
 * of another type (an object for a name, a number for a phone), some anything at all.
 */
export const leadDeliveryArb: fc.Arbitrary<Buffer> = fc
  .record({
    event: fc.constantFrom('LEAD-CAPTURED', 'HANDOFF-REQUESTED', 'OTHER', '', 5),
    bot: fc.oneof(fc.record({ id: fc.integer(), name: fc.string() }), fc.jsonValue()),
    lead: fc.oneof(
      fc.record({
        name: fc.oneof(fc.string(), fc.jsonValue()),
        email: fc.string(),
        phone: fc.oneof(fc.string(), fc.integer()),
        note: fc.option(fc.string()),
      }),
      fc.jsonValue(),
    ),
    conversation: fc.oneof(
      fc.record({ id: fc.oneof(fc.integer(), fc.constantFrom(2 ** 53, -1, 0, 1.5, '7', null)) }),
      fc.jsonValue(),
    ),
  })
  .map((o) => Buffer.from(JSON.stringify(o)));
