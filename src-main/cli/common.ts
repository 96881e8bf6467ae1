import { type ParseArgsConfig, parseArgs } from 'node:util';
import { type AppError, appError } from '../../src-shared/errors';
import {
  type Connection,
  defaultDataDir,
  type FileApiClient,
  type LocalState,
  normalizeBaseUrl,
  openLocalState,
  openServiceSession,
} from '../core';
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
  /** A command that only reads (status, files, account, usage): it changes no mode on disk. */
  readOnly?: boolean;
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
  /** Notes that scripts need too (standard error, in both modes). */
  notice(text: string): void {
    process.stderr.write(`${forTerminalLines(text)}\n`);
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
  spec: {
    options: O;
    usage: string;
    positionals?: { min: number; max: number };
    /** The command only reads the app's state: no folder or file on disk gets another mode. */
    readOnly?: boolean;
  },
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
    ...(spec.readOnly ? { readOnly: true } : {}),
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

export interface Session {
  state: LocalState;
  out: Output;
  common: CommonFlags;
}

export interface ConnectedSession extends Session {
  connection: Connection;
  client: FileApiClient;
}

/** Opens the app's local state (database, keychain), runs `fn`, and closes it whatever happens. */
export async function withSession(
  common: CommonFlags,
  out: Output,
  fn: (s: Session) => Promise<number>,
): Promise<number> {
  const opened = openLocalState(common.dataDir, undefined, { readOnly: common.readOnly === true });
  if (!opened.ok) {
    out.error(opened.error);
    return EXIT.failed;
  }
  try {
    return await fn({ state: opened.value, out, common });
  } finally {
    await opened.value.close();
  }
}

/** withSession, plus the account resolved (env key > saved account > sandbox) and a client on it. */
export function withConnection(
  common: CommonFlags,
  out: Output,
  fn: (s: ConnectedSession) => Promise<number>,
  env: NodeJS.ProcessEnv = process.env,
  /** Runs before the client is made (sync joins the office there: its budget is the office's). */
  beforeConnect?: (s: Session) => void,
): Promise<number> {
  return withSession(common, out, async (s) => {
    beforeConnect?.(s);
    const opened = await openServiceSession(s.state, {
      env,
      ...(common.baseUrl !== undefined ? { baseUrl: common.baseUrl } : {}),
    });
    if (!opened.ok) {
      out.error(opened.error);
      return EXIT.failed;
    }
    const { connection, client } = opened.value;
    if (connection.kind === 'sandbox') out.notice(sandboxNote(connection));
    try {
      return await fn({ ...s, connection, client });
    } finally {
      await opened.value.close();
    }
  });
}

/** Which sandbox a command uses, and whether it had to start it (its links stay the same either way). */
export function sandboxNote(c: Connection): string {
  if (c.startedHere)
    return (
      `Started this data folder's sandbox at ${c.baseUrl}: no app or command was running it. It stops when this ` +
      `command ends; its links answer again whenever this data folder's sandbox runs. "assets-sync login" connects an account.`
    );
  const who = c.ownerPid ? ` (process ${c.ownerPid})` : '';
  return `Using this data folder's sandbox at ${c.baseUrl}, run by the app or another command${who}; it keeps running.`;
}
