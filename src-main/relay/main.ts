import { homedir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { DEFAULT_RELAY_PORT, DEFAULT_RETENTION_DAYS, startRelay } from './relay-server';

const USAGE = `assets-sync relay [--host H] [--port N] [--data-dir DIR] [--public-url URL] [--retention-days N]
                  [--new-read-token]
  An always-on relay for lead deliveries: the service posts to its webhook URL, desks pull with its read
  token. When ready it prints one JSON line: {"event":"ready","url","webhook_url","token"} (logs on stderr).
  --host            address to listen on (default 127.0.0.1; put TLS in front: docs/relay.md)
  --port            port (default ${DEFAULT_RELAY_PORT}; 0 picks a free one)
  --data-dir        where deliveries are kept (else ASSETS_RELAY_DATA_DIR, else ~/.local/share/assets-sync-relay)
  --public-url      the https:// address the service and desks reach; the webhook URL is built on it
  --retention-days  deliveries and marks older than this are deleted (default ${DEFAULT_RETENTION_DAYS})
  --new-read-token  replace the read token (the old one stops working at once)`;

function defaultDataDir(env: NodeJS.ProcessEnv): string {
  if (env.ASSETS_RELAY_DATA_DIR) return env.ASSETS_RELAY_DATA_DIR;
  return join(env.XDG_DATA_HOME || join(homedir(), '.local', 'share'), 'assets-sync-relay');
}

type Flags = {
  host: string;
  port: number;
  dataDir: string;
  publicUrl?: string;
  retentionDays: number;
  newReadToken: boolean;
};

export function parseRelayFlags(
  argv: string[],
  env: NodeJS.ProcessEnv = process.env,
): { ok: true; flags: Flags } | { ok: false; message: string; help?: true } {
  let values: Record<string, string | boolean | undefined>;
  try {
    values = parseArgs({
      args: argv,
      options: {
        host: { type: 'string', default: '127.0.0.1' },
        port: { type: 'string', default: String(DEFAULT_RELAY_PORT) },
        'data-dir': { type: 'string' },
        'public-url': { type: 'string' },
        'retention-days': { type: 'string', default: String(DEFAULT_RETENTION_DAYS) },
        'new-read-token': { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
      strict: true,
    }).values;
  } catch (error) {
    return { ok: false, message: `${(error as Error).message}. Run "assets-sync relay --help".` };
  }
  if (values.help) return { ok: false, message: USAGE, help: true };
  const port = String(values.port);
  if (!/^\d{1,5}$/.test(port) || Number(port) > 65_535)
    return { ok: false, message: `--port must be a whole number from 0 to 65535, not "${port}".` };
  const days = String(values['retention-days']);
  if (!/^\d{1,5}$/.test(days) || Number(days) < 1)
    return {
      ok: false,
      message: `--retention-days must be a whole number of days, 1 or more, not "${days}".`,
    };
  const publicUrl = values['public-url'] as string | undefined;
  if (publicUrl !== undefined) {
    let u: URL | null = null;
    try {
      u = new URL(publicUrl);
    } catch {}
    if (!u || !/^https?:$/.test(u.protocol) || u.search || u.hash || u.username)
      return {
        ok: false,
        message: `--public-url must be an http(s) address without query or credentials, not "${publicUrl}".`,
      };
  }
  return {
    ok: true,
    flags: {
      host: String(values.host),
      port: Number(port),
      dataDir: (values['data-dir'] as string | undefined) ?? defaultDataDir(env),
      ...(publicUrl ? { publicUrl } : {}),
      retentionDays: Number(days),
      newReadToken: values['new-read-token'] === true,
    },
  };
}

/** `assets-sync relay`: one JSON ready line on stdout, logs on stderr, SIGTERM/SIGINT stop it cleanly. */
export async function run(argv: string[]): Promise<number> {
  const parsed = parseRelayFlags(argv);
  if (!parsed.ok) {
    if (parsed.help) {
      console.log(parsed.message);
      return 0;
    }
    console.error(`relay: ${parsed.message}`);
    return 2;
  }
  const f = parsed.flags;
  let relay: Awaited<ReturnType<typeof startRelay>>;
  try {
    relay = await startRelay({
      dataDir: f.dataDir,
      host: f.host,
      port: f.port,
      retentionDays: f.retentionDays,
      newReadToken: f.newReadToken,
      ...(f.publicUrl ? { publicUrl: f.publicUrl } : {}),
    });
  } catch (error) {
    const code = (error as { code?: string }).code;
    // A database a later version wrote, a folder refused: the message says which and what to do.
    const said =
      code === 'DATA-NEWER'
        ? `${code}: ${(error as Error).message}`
        : code?.startsWith('DATA-DIR')
          ? (error as Error).message
          : (code ?? (error as Error).message);
    console.error(`relay: could not start on ${f.host}:${f.port} with data in ${f.dataDir}: ${said}`);
    return 1;
  }
  const ready = {
    event: 'ready',
    url: relay.url,
    webhook_url: relay.webhookUrl,
    token: relay.token,
    ...(f.publicUrl ? { public_url: f.publicUrl.replace(/\/+$/, '') } : {}),
  };
  process.stdout.write(`${JSON.stringify(ready)}\n`);
  console.error(
    `relay: listening on ${relay.url}, data in ${f.dataDir}, deliveries kept ${f.retentionDays} days`,
  );
  await new Promise<void>((resolve) => {
    const stop = () => {
      process.off('SIGTERM', stop);
      process.off('SIGINT', stop);
      relay.close().then(resolve, (error: unknown) => {
        console.error(`relay: error while stopping: ${String(error)}`);
        resolve();
      });
    };
    process.on('SIGTERM', stop);
    process.on('SIGINT', stop);
  });
  return 0;
}
