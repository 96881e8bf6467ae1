import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { Db, Migration } from '../shared-node/sqlite';
import type { Clock, JobSource, Scheduler } from './clock';
import type { ServerOptions } from './options';

/** What every part of the server shares: one database, one clock, the options, and where objects live. */
export interface ServerContext {
  readonly db: Db;
  readonly clock: Clock;
  readonly scheduler: Scheduler;
  readonly options: ServerOptions;
  readonly dataDir: string;
  /** Where stored objects live (under dataDir). */
  readonly objectsDir: string;
  readonly log: FastifyBaseLogger;
  /** Filled in once the server listens. */
  baseUrl: string;
  cdnUrl: string;
}

/** Fields of the ready line's `demo` object; modules add theirs when the data folder is new. */
export type DemoInfo = Record<string, string | number>;

/**
 * One half of the service (file hosting; knowledge entries and webhooks). Modules are independent:
 * each owns its tables (a migration id range), its routes, its admin routes and its timed jobs.
 */
export interface ServerModule {
  readonly name: string;
  /** Ids: base 1-9, file hosting 10-99, knowledge entries and webhooks 100-199. */
  readonly migrations: Migration[];
  /** The module's block of migration ids (db/migrations.ts places the blocks). */
  readonly migrationIds: { readonly first: number; readonly last: number };
  /** Registers the public API routes and the module's admin routes (under /__admin/v1, already authenticated). */
  register(app: FastifyInstance, ctx: ServerContext): Promise<void> | void;
  registerAdmin?(admin: FastifyInstance, ctx: ServerContext): Promise<void> | void;
  jobs?(ctx: ServerContext): JobSource[];
  /** Called once on a new data folder, in module order; adds fields to the ready line's `demo`. */
  seedDemo?(ctx: ServerContext, demo: DemoInfo): void;
  /** Called after the server listens (base URL known): resume work that was pending at the last stop. */
  start?(ctx: ServerContext): void;
  close?(): Promise<void> | void;
}
