/**
 * The core's public API: what code outside src-main/core imports (the CLI; the Electron shell).
 * Everything else under src-main/core is internal and may move between rooms without notice;
 * test/unit/layering.test.ts holds the CLI, the Electron and headless shells and the launcher to this file;
 * the harnesses of tools/ have their own door, internal.ts.
 *
 * - The app service: the whole app behind the contract, as the shells drive it.
 * - Local state: the data dir, its database, the saved account and the keychain, for a command that
 *   runs once; a connection to the service (account or sandbox) with a client on it.
 * - The sync engine, which `assets-sync sync` drives directly (FOUND_NOT_SYNCED: the skip codes of files
 *   found and not synced, bytes that could not be read or a name not in UTF-8, for its exit code), and
 *   the local sync status.
 * - The leads inbox (`assets-sync leads`), pulled from a relay first when one is configured.
 * - The remote index (`assets-sync files`: every live file of the account in SQLite) and its export rows;
 *   the URL import (`assets-sync import-urls`).
 */

export type { AppService, AppServiceOptions, AppStats } from './app/app-service';
export { createAppService } from './app/app-service';
export { savedBandwidth, trayPresets, whenText } from './app/bandwidth-settings';
export { readAppHolds } from './app/holds-file';
export type { LocalState, ServiceSession } from './app/local-state';
export { openLocalState, openServiceSession } from './app/local-state';
export type { LocalFolderStatus } from './app/local-status';
export { readKnowledgeFacts, readLocalSyncStatus } from './app/local-status';
export { defaultDataDir } from './config/paths';
export type { LeadsInbox } from './leads/leads-inbox';
export { openLeadsInbox } from './leads/leads-inbox';
export { readLeadsFacts } from './leads/leads-link';
export { joinAsDesk, readDeskStatuses } from './office/desk-of';
export type { OfficeHandle } from './office/join';
export { newJoinCode, OFFICE_KEY_ACCOUNT, OFFICE_KEY_ENV } from './office/office-settings';
export { csvHeader, csvRow, exportRow } from './remote-index/export';
export type { AccountIndex, RemoteIndex } from './remote-index/remote-index';
export { createRemoteIndex } from './remote-index/remote-index';
export { ApiFailure } from './service/api-error';
export type { Connection } from './service/connection';
export { normalizeBaseUrl, plainHttpRefusal } from './service/connection';
export type { FileApiClient } from './service/file-api-client';
export { createFileApiClient } from './service/file-api-client';
export { serviceSettingsStore } from './service/settings';
export { statementForCommand } from './statement/for-command';
export { statementPdf } from './statement/statement-pdf';
export { serviceIdentity } from './sync/account/service-identity';
export type { DryRunReport } from './sync/dry-run/dry-run';
export { dryRun } from './sync/dry-run/dry-run';
export type { SettledSummary, SyncEngine } from './sync/engine';
export { createSyncEngine } from './sync/engine';
export type { BandwidthSetting, InForce } from './sync/engine/schedule';
export type { SyncEvents } from './sync/events';
export { FOUND_NOT_SYNCED } from './sync/local/file-names';
export { checkIds } from './url-import/check-ids';
export { importUrls } from './url-import/import-urls';
