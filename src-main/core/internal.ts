/**
 * The core as the benchmark and soak harnesses (tools/) see it: they assemble the engine part by part
 * (their own database, client and budget, one engine in a child process) to measure it without the app
 * around it. This file is their door to the internals: tools/ import the core only from here or
 * from the public index.ts, and nothing else imports this file (test/support/layering-rules.ts). What is listed here is no promise to the shells:
 * they use index.ts, and a room may change its internals with only this list and the harnesses to
 * follow. The engine's parts only, each from its own module: a child process that imports this file
 * loads no app service (through index.ts, the soak's app child loaded ~200 KiB more code).
 */

export { createKbClient } from './kb/api-client';
export { botTokenAccount } from './kb/bots';
export type { KbService } from './kb/kb-service';
export { createKbService } from './kb/kb-service';
export { createLeadsService } from './leads/leads-service';
export { createLeadsStore } from './leads/leads-store';
export { LEADS_MIGRATIONS } from './leads/migrations';
export { startLeadReceiver } from './leads/receiver';
export { signingSecretAccount } from './leads/signing-keys';
export { encodeMessage } from './office/protocol';
export type { RemoteIndex } from './remote-index/remote-index';
export { createRemoteIndex } from './remote-index/remote-index';
export type { SecretStore } from './secrets/keychain';
export type { FileApiClient } from './service/file-api-client';
export { createFileApiClient } from './service/file-api-client';
export { closePools } from './service/http-pool';
export {
  budgetFor,
  createRequestBudget,
  DEFAULT_BACKGROUND_SHARE,
  DEFAULT_FILE_API_PER_MINUTE,
} from './service/request-budget';
export { APP_MIGRATIONS } from './state/migrations';
export type { SyncEngine } from './sync/engine';
export { createSyncEngine } from './sync/engine';
export { createHasher } from './sync/hash/hasher';
export { DONE_STATES } from './sync/state/transitions';
export type { FolderMode } from './sync/types';
