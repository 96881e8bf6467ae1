import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import { type AppError, appError, err, ok, type Result } from '../../../../src-shared/errors';
import type { Db } from '../../../shared-node/sqlite';
import type { FileApiClient } from '../../service/file-api-client';
import { createHasher, type Hasher } from '../hash/hasher';
import { filesStore } from '../state/files-store';
import { foldersStore } from '../state/folders-store';
import type { FileRow, FolderMode } from '../types';
import { billOf, type PlanBill } from './bill';
import { type FolderPlan, planFolder } from './plan-folder';
import { listBucketCopies, type RemoteCopies } from './remote-copies';
import { DEFAULT_LIMITS, type PlanTiming, type SyncLimits, timingOf } from './timing';

/**
 * A dry run: what a sync of a folder would do and cost, spending no upload request (GET /me and one
 * listing of the bucket, pages of 100, are the only requests). For a path not yet watched, or a watched
 * folder (its rows say what is live already). docs/sync-engine.md, "Dry run".
 */
export interface DryRunInput {
  client: FileApiClient;
  path: string;
  /** Default: the watched folder's bucket, else the account's default bucket. */
  bucket?: string;
  mode?: FolderMode;
  ignore?: string;
  followOutsideLinks?: boolean;
  /** The app database, to find the folder's rows when it is watched. */
  db?: Db;
  hasher?: Hasher;
  /** The bucket's live files when known (the remote index), instead of one listing. */
  remote?: RemoteCopies;
  dedupe?: boolean;
  limits?: SyncLimits;
  /** Service time (epoch ms); default the machine's. */
  serviceNow?: () => number;
}

export interface DryRunReport {
  path: string;
  bucket: string;
  mode: FolderMode;
  watched: boolean;
  dedupe: boolean;
  plan: FolderPlan;
  bill: PlanBill;
  timing: PlanTiming;
  /** Requests the dry run itself spent (GET /me, listing pages). */
  readRequests: number;
}

export async function dryRun(input: DryRunInput): Promise<Result<DryRunReport, AppError>> {
  const path = resolve(input.path);
  try {
    if (!statSync(path).isDirectory()) return err(appError('NOT-A-FOLDER', `${path} is not a folder.`));
  } catch (e) {
    return err(
      appError('FOLDER-MISSING', `${path} cannot be read (${(e as NodeJS.ErrnoException).code ?? e}).`),
    );
  }
  const folder = input.db
    ? (foldersStore(input.db)
        .list()
        .find((f) => f.path === path) ?? null)
    : null;
  const me = await input.client.me();
  if (!me.ok) return me;
  const bucket = input.bucket ?? folder?.bucket ?? me.value.client.default_bucket;
  const mode = input.mode ?? folder?.mode ?? 'upload-only';
  const dedupe = input.dedupe ?? false;
  let remote = input.remote;
  if (!remote) {
    const listed = await listBucketCopies(input.client, bucket);
    if (!listed.ok) return listed;
    remote = listed.value;
  }
  const rows = folder && input.db ? rowsOf(input.db, folder.id) : [];
  const hasher = input.hasher ?? createHasher();
  try {
    const plan = await planFolder({
      newFolder: !folder,
      path,
      bucket,
      mode,
      ignore: input.ignore ?? folder?.ignore ?? '',
      followOutsideLinks: input.followOutsideLinks ?? folder?.followOutsideLinks ?? false,
      rows,
      rules: {
        allowedExtensions: me.value.pricing.allowed_extensions,
        maxFileBytes: me.value.pricing.max_file_bytes,
      },
      hasher,
      remote,
      dedupe,
    });
    const now = (input.serviceNow ?? Date.now)();
    return ok({
      path,
      bucket,
      mode,
      watched: folder !== null,
      dedupe,
      plan,
      bill: billOf(plan, me.value, now, dedupe),
      timing: timingOf(plan.upload.count + plan.deletes, plan.upload.bytes, input.limits ?? DEFAULT_LIMITS),
      readRequests: 1 + remote.requests,
    });
  } finally {
    if (!input.hasher) await hasher.close();
  }
}

function rowsOf(db: Db, folderId: number): FileRow[] {
  const files = filesStore(db);
  const out: FileRow[] = [];
  for (let afterId = 0; ; ) {
    const page = files.list({ folderId, afterId, limit: 1000 });
    out.push(...page);
    if (page.length < 1000) return out;
    afterId = page[page.length - 1]!.id;
  }
}
