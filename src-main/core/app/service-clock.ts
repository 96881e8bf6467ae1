import diagnostics from 'node:diagnostics_channel';
import type { ServiceClock } from '../../../src-shared/contract';
import type { Connection } from '../service/connection';
import { httpJson } from '../service/http-json';

/** An offset that moves less than this is the Date header's one-second rounding, not news. */
const NOTEWORTHY_MS = 1000;
const MACHINE: ServiceClock = { offsetMs: 0, source: 'machine', measuredAt: null };

interface HeadersMessage {
  request: { origin?: string | URL };
  response: { headers?: (Buffer | string)[] };
}

/**
 * The service's clock. A real account's offset comes from the HTTP `Date` header of every reply the
 * service sends (read from undici's diagnostics channel, so the service client is untouched and no
 * request is spent on it). The sandbox's clock can be advanced through its admin surface while its
 * Date header keeps the machine's time, so for the sandbox the admin clock is read instead.
 */
export function createServiceClock(o: { onChange(clock: ServiceClock): void; now?: () => number }) {
  const now = o.now ?? Date.now;
  let state: ServiceClock = MACHINE;
  let following: Connection | null = null;

  const set = (offsetMs: number, source: ServiceClock['source']) => {
    const moved = Math.abs(offsetMs - state.offsetMs) >= NOTEWORTHY_MS || source !== state.source;
    state = { offsetMs: moved ? offsetMs : state.offsetMs, source, measuredAt: now() };
    if (moved) o.onChange(state);
  };

  const onHeaders = (message: unknown) => {
    const c = following;
    if (!c || c.kind === 'sandbox') return;
    const m = message as HeadersMessage;
    if (String(m.request.origin ?? '').replace(/\/$/, '') !== new URL(c.baseUrl).origin) return;
    const date = headerValue(m.response.headers ?? [], 'date');
    const at = date ? Date.parse(date) : Number.NaN;
    // The header is cut to the second: the middle of that second is the best estimate.
    if (!Number.isNaN(at)) set(at + 500 - now(), 'date-header');
  };
  diagnostics.subscribe('undici:request:headers', onHeaders);

  return {
    get: (): ServiceClock => state,
    /** Service time now, in epoch ms. */
    now: () => now() + state.offsetMs,
    /** A new connection: offsets measured for the previous one no longer hold. */
    follow(connection: Connection | null): void {
      following = connection;
      if (state.source !== 'machine') {
        state = MACHINE;
        o.onChange(state);
      }
    },
    /** Reads the sandbox's admin clock (never rate limited); a real account needs nothing here. */
    async refresh(): Promise<ServiceClock> {
      const c = following;
      if (c?.kind !== 'sandbox' || !c.adminToken) return state;
      const sent = now();
      const res = await httpJson({
        url: `${c.baseUrl}/__admin/v1/clock`,
        method: 'GET',
        headers: { 'x-admin-token': c.adminToken },
        timeoutMs: 5000,
      });
      // A sandbox that does not answer keeps the last offset; the next refresh tries again.
      if (!res.ok || res.value.status !== 200) return state;
      const body = res.value.json as { now?: unknown } | undefined;
      const at = typeof body?.now === 'string' ? Date.parse(body.now) : Number.NaN;
      if (!Number.isNaN(at) && following === c) set(at - (sent + now()) / 2, 'sandbox-clock');
      return state;
    },
    close(): void {
      diagnostics.unsubscribe('undici:request:headers', onHeaders);
    },
  };
}
export type ServiceClockKeeper = ReturnType<typeof createServiceClock>;

function headerValue(raw: readonly (Buffer | string)[], name: string): string | null {
  for (let i = 0; i + 1 < raw.length; i += 2)
    if (String(raw[i]).toLowerCase() === name) return String(raw[i + 1]);
  return null;
}
