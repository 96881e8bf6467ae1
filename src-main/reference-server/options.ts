import { z } from 'zod';

/** Flags of `npm run reference-server` (reference-server.md, "Starting it"). */
export const ServerOptionsSchema = z.object({
  host: z.string().min(1).default('127.0.0.1'),
  port: z.number().int().min(0).max(65535).default(0),
  /** Absent: a new temporary folder. */
  dataDir: z.string().min(1).optional(),
  /** False: an existing data folder and database keep their modes (the app's commands that only read). */
  tightenDataDir: z.boolean().default(true),
  ratePerMinute: z.number().int().min(0).default(120),
  kbRatePerMinute: z.number().int().min(0).default(60),
  /** How the file API counts (rate-limit.ts): `fixed-strict` is a test aid, a stricter service than documented. */
  rateLimitMode: z.enum(['sliding', 'fixed-strict']).default('sliding'),
  webhookTimeoutMs: z.number().int().min(1).default(8000),
  pricePerGbMonthPaise: z.number().int().min(0).default(500),
  /** Absent: random. */
  adminToken: z.string().min(1).optional(),
  /** Uploads by URL refuse loopback, link-local and private addresses, at every redirect (off: a local fixture). */
  refusePrivateSources: z.boolean().default(false),
});
export type ServerOptionsInput = z.input<typeof ServerOptionsSchema>;
export type ServerOptions = z.output<typeof ServerOptionsSchema>;

const FLAGS: Record<string, { key: keyof ServerOptions; kind: 'string' | 'int' | 'switch' }> = {
  '--host': { key: 'host', kind: 'string' },
  '--port': { key: 'port', kind: 'int' },
  '--data-dir': { key: 'dataDir', kind: 'string' },
  '--rate-limit-per-minute': { key: 'ratePerMinute', kind: 'int' },
  '--kb-rate-limit-per-minute': { key: 'kbRatePerMinute', kind: 'int' },
  '--rate-limit-mode': { key: 'rateLimitMode', kind: 'string' },
  '--webhook-timeout-ms': { key: 'webhookTimeoutMs', kind: 'int' },
  '--price-per-gb-month-paise': { key: 'pricePerGbMonthPaise', kind: 'int' },
  '--admin-token': { key: 'adminToken', kind: 'string' },
  '--refuse-private-sources': { key: 'refusePrivateSources', kind: 'switch' },
};

export type ParsedFlags = { ok: true; options: ServerOptions } | { ok: false; message: string };

/** Parses `--flag value` and `--flag=value`; an unknown flag or a bad value is an error that names it. */
export function parseServerFlags(argv: readonly string[]): ParsedFlags {
  const raw: Record<string, unknown> = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const eq = arg.indexOf('=');
    const name = eq > 0 ? arg.slice(0, eq) : arg;
    const flag = FLAGS[name];
    if (!flag)
      return { ok: false, message: `unknown flag "${name}"; known: ${Object.keys(FLAGS).join(', ')}` };
    if (flag.kind === 'switch') {
      if (eq > 0) return { ok: false, message: `flag ${name} takes no value` };
      raw[flag.key] = true;
      continue;
    }
    const value = eq > 0 ? arg.slice(eq + 1) : argv[++i];
    if (value === undefined) return { ok: false, message: `flag ${name} needs a value` };
    if (flag.kind === 'int') {
      if (!/^\d+$/.test(value))
        return { ok: false, message: `flag ${name} takes a whole number, got "${value}"` };
      raw[flag.key] = Number(value);
    } else raw[flag.key] = value;
  }
  const parsed = ServerOptionsSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const flag = Object.entries(FLAGS).find(([, f]) => f.key === issue.path[0])?.[0] ?? String(issue.path[0]);
    return { ok: false, message: `flag ${flag}: ${issue.message}` };
  }
  return { ok: true, options: parsed.data };
}
