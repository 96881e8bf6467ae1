import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { BUCKET_PATTERN } from '../../../src-shared/domain/bucket';
import { ALLOWED_EXTENSIONS } from '../../../src-shared/domain/extensions';
import { sendAdminError } from '../http/envelopes';
import type { Hosting } from './hosting';
import { seedFiles } from './seed-files';

const NewClient = z
  .object({
    name: z.string().trim().min(1, 'name must be a non-empty string').max(200),
    wallet_paise: z.number().int().min(0).default(10_000),
    default_bucket: z
      .string()
      .regex(BUCKET_PATTERN, 'default_bucket must match [a-z0-9][a-z0-9.-]{0,49}')
      .default('default'),
  })
  .strict();
const WalletChange = z
  .object({
    amount_paise: z
      .number()
      .int()
      .refine((n) => n !== 0, 'amount_paise must not be 0'),
  })
  .strict();
const Rate = z.number().min(0).max(1);
const FaultsBody = z
  .object({
    storage_fail_rate: Rate.optional(),
    connection_reset_rate: Rate.optional(),
    // A planted error in the next daily charge (issue 35); a negative one lowers it (never below 0).
    rent_error_paise: z.number().int().min(-1_000_000_000).max(1_000_000_000).optional(),
    // Every API request answers 429 (with Retry-After) for this long; 0 ends it; up to an hour.
    rate_limited_seconds: z.number().int().min(0).max(3600).optional(),
  })
  .strict();

const Bucket = z.string().regex(BUCKET_PATTERN, 'a bucket must match [a-z0-9][a-z0-9.-]{0,49}');
const SeedBody = z
  .object({
    client_id: z.number().int().positive(),
    count: z.number().int().min(1).max(200_000),
    bucket: Bucket.optional(),
    buckets: z.array(Bucket).min(1).max(50).optional(),
    extension: z.enum(ALLOWED_EXTENSIONS).default('pdf'),
    bytes: z.number().int().min(1).max(1_048_576).default(1024),
    prefix: z
      .string()
      .regex(
        /^[A-Za-z0-9 ._-]{0,100}$/,
        'prefix: letters, digits, space, dot, dash and underscore, 100 at most',
      )
      .default('seed-'),
  })
  .strict()
  .refine((b) => !(b.bucket && b.buckets), 'send bucket or buckets, not both');

function problem(error: z.ZodError): string {
  const issue = error.issues[0]!;
  return issue.path.length ? `${issue.path.join('.')}: ${issue.message}` : issue.message;
}

function idParam(raw: string): number | null {
  return /^\d+$/.test(raw) && Number.isSafeInteger(Number(raw)) ? Number(raw) : null;
}

/** The file-hosting part of `/__admin/v1` (reference-server.md): clients, keys, wallets, faults. */
export function registerFileHostingAdmin(admin: FastifyInstance, hosting: Hosting): void {
  const now = () => hosting.ctx.clock.now();

  admin.post('/clients', async (request, reply) => {
    const body = NewClient.safeParse(request.body ?? {});
    if (!body.success) return sendAdminError(reply, 400, problem(body.error));
    const opened = hosting.openClient({
      name: body.data.name,
      walletPaise: body.data.wallet_paise,
      defaultBucket: body.data.default_bucket,
    });
    const c = opened.client;
    return reply.code(201).send({
      client: { id: c.id, name: c.name, status: c.status, default_bucket: c.default_bucket },
      api_key: opened.api_key,
      key_id: opened.key_id,
    });
  });

  admin.post('/clients/:id/keys', async (request, reply) => {
    const id = idParam((request.params as { id: string }).id);
    if (id === null || !hosting.clients.get(id)) return sendAdminError(reply, 404, 'No such client.');
    return reply.code(201).send(hosting.clients.mintKey(id, now()));
  });

  admin.delete('/keys/:keyId', async (request, reply) => {
    const id = idParam((request.params as { keyId: string }).keyId);
    if (id === null || !hosting.clients.revokeKey(id, now()))
      return sendAdminError(reply, 404, 'No such key.');
    return { key_id: id, revoked: true };
  });

  admin.post('/clients/:id/wallet', async (request, reply) => {
    const id = idParam((request.params as { id: string }).id);
    const client = id === null ? undefined : hosting.clients.get(id);
    if (!client) return sendAdminError(reply, 404, 'No such client.');
    if (client.status === 'CLOSED')
      return sendAdminError(reply, 409, 'The client is closed; its wallet is frozen.');
    const body = WalletChange.safeParse(request.body ?? {});
    if (!body.success) return sendAdminError(reply, 400, problem(body.error));
    const after = hosting.wallet.adjust(client.id, body.data.amount_paise, now());
    return { balance_paise: after.balance_paise, arrears_paise: after.arrears_paise };
  });

  admin.post('/files/seed', async (request, reply) => {
    const body = SeedBody.safeParse(request.body ?? {});
    if (!body.success) return sendAdminError(reply, 400, problem(body.error));
    const b = body.data;
    const client = hosting.clients.get(b.client_id);
    if (!client) return sendAdminError(reply, 404, 'No such client.');
    if (client.status === 'CLOSED') return sendAdminError(reply, 409, 'The client is closed.');
    const seeded = seedFiles(hosting, client, {
      count: b.count,
      buckets: b.buckets ?? [b.bucket ?? client.default_bucket],
      extension: b.extension,
      bytes: b.bytes,
      prefix: b.prefix,
    });
    return reply.code(201).send({ client_id: client.id, count: b.count, ...seeded });
  });

  admin.get('/requests', async () => hosting.requests.snapshot());
  admin.delete('/requests', async () => {
    hosting.requests.reset();
    return hosting.requests.snapshot();
  });

  admin.put('/faults', async (request, reply) => {
    const body = FaultsBody.safeParse(request.body ?? {});
    if (!body.success) return sendAdminError(reply, 400, problem(body.error));
    const { rate_limited_seconds: limited, ...rest } = body.data;
    if (limited !== undefined) hosting.faults.limitFor(limited, now());
    const next = Object.fromEntries(Object.entries(rest).filter(([, v]) => v !== undefined));
    return { ...hosting.faults.set(next), rate_limited_until: hosting.faults.limitedUntil(now()) };
  });
}
