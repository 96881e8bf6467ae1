import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { makePrivateDir, openDataDir } from '../shared-node/private-files';
import { openDatabase } from '../shared-node/sqlite';
import { buildApp } from './app';
import { persistentClock, Scheduler } from './clock';
import type { DemoInfo, ServerContext } from './context';
import { SERVER_MIGRATIONS } from './db/migrations';
import { MODULES } from './modules';
import { type ServerOptionsInput, ServerOptionsSchema } from './options';

export interface RunningServer {
  readonly baseUrl: string;
  readonly cdnUrl: string;
  readonly adminToken: string;
  readonly dataDir: string;
  /** Present when the data folder was new (reference-server.md). */
  readonly demo?: DemoInfo;
  /** Stops listening, lets work in progress finish, and closes the database: nothing is lost. */
  close(): Promise<void>;
}

/** Starts the reference server in this process (the CLI, the embedded sandbox and the tests all use this). */
export async function startReferenceServer(input: ServerOptionsInput = {}): Promise<RunningServer> {
  const options = ServerOptionsSchema.parse(input);
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'assets-ref-'));
  const folder = openDataDir(dataDir, 'reference-server.sqlite', options.tightenDataDir);
  if (!folder.ok) throw new Error(`${folder.error.code}: ${folder.error.message}`);
  const dbFile = join(dataDir, 'reference-server.sqlite');
  const isNew = !existsSync(dbFile);
  const objectsDir = join(dataDir, 'objects');
  makePrivateDir(objectsDir, options.tightenDataDir);

  const db = openDatabase(dbFile, SERVER_MIGRATIONS, { tighten: options.tightenDataDir });
  const clock = persistentClock(db);
  const scheduler = new Scheduler(clock);
  const log = pino({ level: process.env.REFERENCE_SERVER_LOG_LEVEL ?? 'warn' }, pino.destination(2));
  const ctx: ServerContext = {
    db,
    clock,
    scheduler,
    options,
    dataDir,
    objectsDir,
    log,
    baseUrl: '',
    cdnUrl: '',
  };
  const adminToken = options.adminToken ?? randomBytes(24).toString('base64url');

  let demo: DemoInfo | undefined;
  if (isNew) {
    const seeded: DemoInfo = {};
    db.transaction(() => {
      for (const m of MODULES) m.seedDemo?.(ctx, seeded);
    })();
    demo = seeded;
  }
  for (const m of MODULES) for (const job of m.jobs?.(ctx) ?? []) scheduler.add(job);

  const app = await buildApp(ctx, MODULES, adminToken);
  try {
    await app.listen({ host: options.host, port: options.port });
  } catch (error) {
    // A port in use (say): nothing was served, so a new folder stays new for the next start.
    await app.close().catch(() => undefined);
    db.close();
    if (isNew) for (const f of [dbFile, `${dbFile}-wal`, `${dbFile}-shm`]) rmSync(f, { force: true });
    throw error;
  }
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  const host = options.host.includes(':') ? `[${options.host}]` : options.host;
  ctx.baseUrl = `http://${host}:${port}`;
  ctx.cdnUrl = ctx.baseUrl;
  for (const m of MODULES) m.start?.(ctx);
  scheduler.start();

  let closing: Promise<void> | null = null;
  return {
    baseUrl: ctx.baseUrl,
    cdnUrl: ctx.cdnUrl,
    adminToken,
    dataDir,
    ...(demo ? { demo } : {}),
    close() {
      closing ??= (async () => {
        scheduler.stop();
        await app.close();
        await scheduler.idle();
        for (const m of MODULES) await m.close?.();
        db.close();
      })();
      return closing;
    },
  };
}
