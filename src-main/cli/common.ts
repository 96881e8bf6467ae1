import { join } from 'node:path';
import { type ParseArgsConfig, parseArgs } from 'node:util';
import { type AppError, appError } from '../../src-shared/errors';
import { defaultDataDir } from '../core/config/paths';
import { osKeychain, type SecretStore } from '../core/secrets/keychain';
import { type ServiceCache, serviceCache } from '../core/service/cache';
import { type Connection, normalizeBaseUrl, resolveConnection } from '../core/service/connection';
import { createFileApiClient, type FileApiClient } from '../core/service/file-api-client';
import { closePools } from '../core/service/http-pool';
import { type ServiceSettingsStore, serviceSettingsStore } from '../core/service/settings';
import { APP_MIGRATIONS } from '../core/state/migrations';
import { makePrivateDir } from '../shared-node/private-files';
import { type Db, openDatabase } from '../shared-node/sqlite';
import { forTerminalLines } from './terminal-text';

/**
 * Exit codes of every command: 0 done, 1 the service or the system said no, 2 the command line is wrong,
 * 3 done except for files or folders that could not be read (`sync --once`, which names them).
 */
export const EXIT = { ok: 0, failed: 1, usage: 2, unreadable: 3 } as const;

/** The flags every command takes. */
export const COMMON_OPTIONS = {
  'base-url': { type: 'string' },
  'data-dir': { type: 'string' },
  json: { type: 'boolean', default: false },
  help: { type: 'boolean', short: 'h', default: false },
} as const satisfies NonNullable<ParseArgsConfig['options']>;

export const COMMON_USAGE = `common options:
  --base-url URL   the service address (else ASSETS_BASE_URL, else the saved account, else the local sandbox)
  --data-dir DIR   where the app keeps its state (else ASSETS_SYNC_DATA_DIR, else the per-user data folder)
  --json           one JSON object per line on standard output, for scripts`;

export interface CommonFlags {
  baseUrl?: string;
  dataDir: string;
  json: boolean;
}

/** Prints for people or, with --json, one JSON object per line for scripts. */
export class Output {
  constructor(
    readonly json: boolean,
    private readonly command: string,
  ) {}
  /** `text` for people (control characters escaped: terminal-text.ts), `event` for scripts (exact). */
  emit(text: string | null, event: Record<string, unknown>): void {
    if (this.json) process.stdout.write(`${JSON.stringify(event)}\n`);
    else if (text !== null) process.stdout.write(`${forTerminalLines(text)}\n`);
  }
  /** Notes for people only (standard error, so piping the output keeps just the data). */
  note(text: string): void {
    if (!this.json) process.stderr.write(`${forTerminalLines(text)}\n`);
  }
  error(e: AppError): void {
    if (this.json)
      process.stdout.write(`${JSON.stringify({ event: 'error', code: e.code, message: e.message })}\n`);
    else
      process.stderr.write(`${forTerminalLines(`assets-sync ${this.command}: ${e.message} [${e.code}]`)}\n`);
  }
}

type Options = NonNullable<ParseArgsConfig['options']>;

export type Parsed<O extends Options> =
  | {
      ok: true;
      values: ReturnType<
        typeof parseArgs<{ options: O & typeof COMMON_OPTIONS; allowPositionals: true }>
      >['values'];
      positionals: string[];
      common: CommonFlags;
      out: Output;
    }
  | { ok: false; exitCode: number };

/**
 * Parses a command's argv with node:util parseArgs (strict: an unknown flag is an error that names
 * it), prints the usage on --help, and resolves the common flags.
 */
export function parseCommand<O extends Options>(
  command: string,
  argv: string[],
  spec: { options: O; usage: string; positionals?: { min: number; max: number } },
  env: NodeJS.ProcessEnv = process.env,
): Parsed<O> {
  const json = argv.includes('--json');
  const out = new Output(json, command);
  let parsed: ReturnType<typeof parseArgs<{ options: O & typeof COMMON_OPTIONS; allowPositionals: true }>>;
  try {
    parsed = parseArgs({
      args: argv,
      options: { ...spec.options, ...COMMON_OPTIONS },
      allowPositionals: true,
      strict: true,
    });
  } catch (e) {
    out.error(appError('USAGE', `${(e as Error).message}. Run "assets-sync ${command} --help".`));
    return { ok: false, exitCode: EXIT.usage };
  }
  const values = parsed.values as Record<string, unknown>;
  if (values.help) {
    process.stdout.write(`${spec.usage}\n\n${COMMON_USAGE}\n`);
    return { ok: false, exitCode: EXIT.ok };
  }
  const { min, max } = spec.positionals ?? { min: 0, max: 0 };
  if (parsed.positionals.length < min || parsed.positionals.length > max) {
    out.error(appError('USAGE', `Wrong number of arguments. Usage: ${spec.usage.split('\n')[0]}`));
    return { ok: false, exitCode: EXIT.usage };
  }
  const common: CommonFlags = {
    dataDir: (values['data-dir'] as string | undefined) ?? defaultDataDir(env),
    json,
  };
  const baseUrl = values['base-url'] as string | undefined;
  if (baseUrl !== undefined) {
    const normalized = normalizeBaseUrl(baseUrl);
    if (!normalized.ok) {
      out.error(normalized.error);
      return { ok: false, exitCode: EXIT.usage };
    }
    common.baseUrl = normalized.value;
  }
  return { ok: true, values: parsed.values, positionals: parsed.positionals, common, out };
}

/** The app database of a data dir, with every module's migrations applied. */
export function openAppDb(dataDir: string): Db {
  makePrivateDir(dataDir);
  return openDatabase(join(dataDir, 'app.sqlite'), APP_MIGRATIONS);
}

export interface Session {
  db: Db;
  settings: ServiceSettingsStore;
  cache: ServiceCache;
  secrets: SecretStore;
  out: Output;
  common: CommonFlags;
}

export interface ConnectedSession extends Session {
  connection: Connection;
  client: FileApiClient;
}

/** Opens the app database and the keychain, runs `fn`, and closes them whatever happens. */
export async function withSession(
  common: CommonFlags,
  out: Output,
  fn: (s: Session) => Promise<number>,
): Promise<number> {
  let db: Db;
  try {
    db = openAppDb(common.dataDir);
  } catch (e) {
    out.error(
      appError('DATA-DIR', `The app state in ${common.dataDir} cannot be opened: ${(e as Error).message}`),
    );
    return EXIT.failed;
  }
  try {
    return await fn({
      db,
      settings: serviceSettingsStore(db),
      cache: serviceCache(db),
      secrets: osKeychain(),
      out,
      common,
    });
  } finally {
    db.close();
    await closePools();
  }
}

/** withSession, plus the account resolved (env key > saved account > sandbox) and a client on it. */
export function withConnection(
  common: CommonFlags,
  out: Output,
  fn: (s: ConnectedSession) => Promise<number>,
  env: NodeJS.ProcessEnv = process.env,
): Promise<number> {
  return withSession(common, out, async (s) => {
    const resolved = await resolveConnection({
      dataDir: common.dataDir,
      settings: s.settings,
      secrets: s.secrets,
      env,
      ...(common.baseUrl !== undefined ? { baseUrl: common.baseUrl } : {}),
    });
    if (!resolved.ok) {
      out.error(resolved.error);
      return EXIT.failed;
    }
    const connection = resolved.value;
    if (connection.kind === 'sandbox')
      out.note(`Using the local sandbox (${connection.baseUrl}); "assets-sync login" connects an account.`);
    try {
      const client = createFileApiClient({ baseUrl: connection.baseUrl, apiKey: connection.apiKey });
      return await fn({ ...s, connection, client });
    } finally {
      await closePools();
      await connection.close();
    }
  });
}

/** "1.50 MB" in 1024 steps: the service calls 209,715,200 bytes "200 MB". */
export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let v = n;
  let i = -1;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return `${Number(v.toFixed(v < 10 ? 2 : 1))} ${units[i]}`;
}
