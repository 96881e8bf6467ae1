import { connect, type Socket } from 'node:net';

/** What came back on one raw connection: the bytes, and every HTTP status line among them. */
export interface RawExchange {
  text: string;
  statuses: number[];
  /** The server closed (or reset) the connection. */
  closed: boolean;
}

const STATUS_LINE = /(?:^|\r\n)HTTP\/1\.[01] (\d{3}) /g;

export function statusesIn(text: string): number[] {
  return [...text.matchAll(STATUS_LINE)].map((m) => Number(m[1]));
}

/**
 * Sends bytes exactly as given (no client library to tidy them up) and reads what comes back.
 * `halfClose` ends our side right after the bytes: for a request whose framing is open-ended (a
 * Content-Length longer than the body, chunks without the last one), so the server sees the end
 * of input instead of waiting. Otherwise the exchange ends at the first status line or when the
 * server closes; `boundMs` is only a ceiling that turns a server that never answers into a failure.
 */
export function exchange(
  port: number,
  bytes: Buffer | string,
  opts: { halfClose?: boolean; boundMs?: number; wholeResponse?: boolean } = {},
): Promise<RawExchange> {
  return new Promise((resolve, reject) => {
    const socket: Socket = connect({ port, host: '127.0.0.1', allowHalfOpen: true });
    const chunks: Buffer[] = [];
    let settled = false;
    const finish = (closed: boolean) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      const text = Buffer.concat(chunks).toString('latin1');
      resolve({ text, statuses: statusesIn(text), closed });
    };
    const timer = setTimeout(() => {
      if (settled) return;
      settled = true;
      socket.destroy();
      reject(new Error(`no answer and no close within ${opts.boundMs ?? 15_000} ms`));
    }, opts.boundMs ?? 15_000);
    socket.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      if (!opts.wholeResponse && statusesIn(Buffer.concat(chunks).toString('latin1')).length > 0)
        finish(false);
    });
    socket.on('end', () => finish(true));
    socket.on('close', () => finish(true));
    socket.on('error', () => finish(true));
    socket.write(bytes);
    if (opts.halfClose) socket.end();
  });
}

/** A plain GET that must be answered: the "still alive and answering" check after each batch. */
export async function getStatus(port: number, path: string, headers: Record<string, string> = {}) {
  const lines = Object.entries({ Host: `127.0.0.1:${port}`, Connection: 'close', ...headers })
    .map(([k, v]) => `${k}: ${v}\r\n`)
    .join('');
  const r = await exchange(port, `GET ${path} HTTP/1.1\r\n${lines}\r\n`);
  return r.statuses[0] ?? 0;
}
