import { z } from 'zod';
import { type AppError, appError, err, ok, type Result } from '../../../../src-shared/errors';
import { httpJson } from '../../service/http-json';

/**
 * The sandbox's admin surface (`/__admin/v1`, docs/reference-server.md) over HTTP, the same way the
 * app reaches any service: no reference-server module is imported. The admin token is sent in a
 * header and never put in an error, a reply or a log line.
 */
const Clock = z.object({ now: z.string(), ist: z.string() });
const Faults = z.object({ storage_fail_rate: z.number(), connection_reset_rate: z.number() });
const Wallet = z.object({ balance_paise: z.number().int(), arrears_paise: z.number().int() });
const Raised = z.object({ conversation_id: z.number().int(), delivery_id: z.number().int() });
const ServerError = z.object({ error: z.string() });
const KbFaults = z.object({ offline: z.boolean(), rate_limited_until: z.string().nullable() });
const ChangedEntry = z.object({ entry: z.object({ id: z.number().int(), title: z.string() }) });

export interface LeadEvent {
  event: 'LEAD-CAPTURED' | 'HANDOFF-REQUESTED';
  lead: { name: string; email: string; phone: string; note: string | null; asked_for_a_person: boolean };
}

export function sandboxAdmin(baseUrl: string, adminToken: string) {
  async function send<T>(
    method: 'GET' | 'POST' | 'PUT',
    path: string,
    body: unknown,
    schema: z.ZodType<T>,
    timeoutMs = 15_000,
  ): Promise<Result<T, AppError>> {
    const res = await httpJson({
      url: `${baseUrl}/__admin/v1${path}`,
      method,
      headers: { 'x-admin-token': adminToken },
      ...(body === undefined ? {} : { json: body }),
      timeoutMs,
    });
    if (!res.ok)
      return err(appError('SANDBOX-UNREACHABLE', `The local sandbox did not answer (${res.error.reason}).`));
    const { status, json } = res.value;
    if (status >= 200 && status < 300) {
      const parsed = schema.safeParse(json);
      if (parsed.success) return ok(parsed.data);
      return err(
        appError('SANDBOX-BAD-REPLY', `The local sandbox answered ${method} ${path} in an unknown shape.`),
      );
    }
    const said = ServerError.safeParse(json);
    return err(
      appError(
        'SANDBOX-REFUSED',
        `The local sandbox refused ${method} ${path} (HTTP ${status})${said.success ? `: ${said.data.error}` : '.'}`,
        { status },
      ),
    );
  }

  return {
    clock: () => send('GET', '/clock', undefined, Clock),
    /** Runs every job that falls due on the way (billing, webhook retries), so it may take a while. */
    advance: (seconds: number) => send('POST', '/clock/advance', { seconds }, Clock, 120_000),
    wallet: (clientId: number, amountPaise: number) =>
      send('POST', `/clients/${clientId}/wallet`, { amount_paise: amountPaise }, Wallet),
    /** With an empty body nothing changes and the faults in force are answered. */
    faults: (patch: {
      storage_fail_rate?: number;
      connection_reset_rate?: number;
      rate_limited_seconds?: number;
    }) => send('PUT', '/faults', patch, Faults),
    raise: (remoteBotId: number, event: LeadEvent) =>
      send('POST', `/bots/${remoteBotId}/events`, event, Raised),
    /** The entry API's test aids (reference-server-kb.md, "Test aids"); an empty body reads them. */
    kbFaults: (patch: { offline?: boolean; rate_limited_seconds?: number }) =>
      send('PUT', '/kb/faults', patch, KbFaults),
    /** An entry changed on the service's side, as another editor would. */
    changeEntry: (remoteBotId: number, remoteEntryId: number) =>
      send('PUT', `/bots/${remoteBotId}/entries/${remoteEntryId}`, {}, ChangedEntry),
  };
}

export type SandboxAdmin = ReturnType<typeof sandboxAdmin>;
