import { type Dispatcher, request } from 'undici';

/**
 * What a reply means for a delivery (section 6 of the document, plus the cases it leaves open):
 * - any 2xx: delivered;
 * - 5xx, 408, 429, a timeout, a connection failure: tried again;
 * - every other status, 3xx included (redirects are not followed: the lead would go to an address the
 *   bot's owner did not configure, and retrying the same URL cannot help), is a refusal.
 * 1xx replies are interim: the HTTP client waits for the final one, and a receiver that never sends it
 * times out (and is retried).
 */
export type Verdict = 'DELIVERED' | 'REFUSED' | 'RETRY';

export function classifyStatus(status: number): Verdict {
  if (status >= 200 && status <= 299) return 'DELIVERED';
  if ((status >= 500 && status <= 599) || status === 408 || status === 429) return 'RETRY';
  return 'REFUSED';
}

export interface AttemptResult {
  /** ABORTED: the server is stopping; the attempt does not count and runs again after the restart. */
  verdict: Verdict | 'ABORTED';
  status: number | null;
  error: string | null;
  durationMs: number;
}

export interface PostOptions {
  url: string;
  body: Buffer;
  headers: Record<string, string>;
  timeoutMs: number;
  /** Aborted when the server stops. */
  shutdown: AbortSignal;
  dispatcher: Dispatcher;
}

/** One POST of a signed body; never throws. */
export async function postWebhook(options: PostOptions): Promise<AttemptResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, options.timeoutMs);
  const onShutdown = () => controller.abort();
  options.shutdown.addEventListener('abort', onShutdown, { once: true });
  try {
    if (options.shutdown.aborted) return { verdict: 'ABORTED', status: null, error: null, durationMs: 0 };
    const res = await request(options.url, {
      method: 'POST',
      headers: options.headers,
      body: options.body,
      signal: controller.signal,
      dispatcher: options.dispatcher,
    });
    const durationMs = elapsed();
    // The reply body is not needed; draining it lets the connection be reused.
    res.body.dump().catch(() => undefined);
    const verdict = classifyStatus(res.statusCode);
    return {
      verdict,
      status: res.statusCode,
      error: verdict === 'DELIVERED' ? null : statusNote(res.statusCode),
      durationMs,
    };
  } catch (error) {
    const durationMs = elapsed();
    if (timedOut)
      return {
        verdict: 'RETRY',
        status: null,
        error: `TIMEOUT: no reply within ${options.timeoutMs} ms`,
        durationMs,
      };
    if (options.shutdown.aborted) return { verdict: 'ABORTED', status: null, error: null, durationMs };
    return {
      verdict: 'RETRY',
      status: null,
      error: `CONNECTION-FAILED: ${describeError(error)}`,
      durationMs,
    };
  } finally {
    clearTimeout(timer);
    options.shutdown.removeEventListener('abort', onShutdown);
  }
}

function statusNote(status: number): string {
  const verdict = classifyStatus(status);
  if (verdict === 'RETRY') return `HTTP-${status}: the receiver failed; retried`;
  if (status >= 300 && status <= 399) return `HTTP-${status}: redirects are not followed; not retried`;
  return `HTTP-${status}: the receiver refused the delivery; not retried`;
}

function describeError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const code = (error as { code?: string }).code;
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  const detail = cause?.code ?? code;
  return detail ? `${detail} (${cause?.message ?? error.message})` : error.message;
}
