import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import type { FileApiClient, FolderMode } from '../../src-main/core/internal';
import type { RemoteFile } from '../../src-shared/api/file-hosting';
import type { SettledReport } from './app-child';
import { filesUnder, remoteName } from './workload';

export interface SoakFolder {
  path: string;
  bucket: string;
  mode: FolderMode;
}

export interface Verification {
  localFiles: number;
  /** Local files the engine skips on purpose (refused extension, empty): expected nowhere online. */
  skippedOnPurpose: number;
  /** Of those, the ones online all the same. */
  skippedButOnline: number;
  /** Local files with exactly one live copy of their name in the bucket, and that copy has their md5. */
  liveOnce: number;
  /** Live copies in mirror buckets with no local file of their name, or a second copy of one. */
  extraInMirror: number;
  /** LIVE rows whose remote id is not online (or online with another md5). */
  rowsPointingNowhere: number;
  /** The first problems, in words. */
  problems: string[];
}

/** The end state the soak asks for, read from the disk and from the service's listing of each bucket. */
export async function verifyFolders(
  client: FileApiClient,
  folders: readonly SoakFolder[],
  report: SettledReport,
): Promise<Verification> {
  const v: Verification = {
    localFiles: 0,
    skippedOnPurpose: 0,
    skippedButOnline: 0,
    liveOnce: 0,
    extraInMirror: 0,
    rowsPointingNowhere: 0,
    problems: [],
  };
  const onPurpose = new Set(
    report.skipped.filter((s) => ON_PURPOSE.includes(s.code ?? '')).map((s) => `${s.folder}\0${s.name}`),
  );
  const note = (p: string) => {
    if (v.problems.length < 20) v.problems.push(p);
  };
  const online = new Map<number, RemoteFile>();
  for (const folder of folders) {
    const copies = new Map<string, RemoteFile[]>();
    for await (const f of client.listAllFiles({ bucket: folder.bucket })) {
      online.set(f.id, f);
      copies.set(f.name, [...(copies.get(f.name) ?? []), f]);
    }
    const local = new Set<string>();
    for (const file of filesUnder(folder.path)) {
      const name = remoteName(folder.path, file);
      local.add(name);
      v.localFiles++;
      const mine = copies.get(name) ?? [];
      if (onPurpose.has(`${folder.path}\0${name}`)) {
        v.skippedOnPurpose++;
        if (mine.length) {
          v.skippedButOnline++;
          note(`${folder.bucket}/${name}: skipped, yet ${mine.length} live copies`);
        }
        continue;
      }
      const md5 = await md5Of(file);
      if (mine.length === 1 && mine[0]!.hash === md5) v.liveOnce++;
      else
        note(
          `${folder.bucket}/${name}: ${mine.length} live copies${mine.length === 1 ? ` with md5 ${mine[0]!.hash}, local ${md5}` : ''}`,
        );
    }
    if (folder.mode !== 'mirror') continue;
    for (const [name, list] of copies) {
      const extra = local.has(name) ? list.length - 1 : list.length;
      if (extra > 0) {
        v.extraInMirror += extra;
        note(`${folder.bucket}/${name}: ${extra} live cop${extra === 1 ? 'y' : 'ies'} too many (mirror)`);
      }
    }
  }
  for (const row of report.live) {
    const remote = online.get(row.remoteId);
    if (!remote || (row.md5 !== null && remote.hash !== row.md5)) {
      v.rowsPointingNowhere++;
      note(
        `row ${row.name} in ${row.folder} says remote ${row.remoteId}, which is ${remote ? 'another file' : 'not online'}`,
      );
    }
  }
  return v;
}

/** Reasons of the checks that cost no request (local-checks.ts): the file is left out by the rules. */
const ON_PURPOSE = ['EXTENSION-NOT-ALLOWED', 'EMPTY', 'FILE-TOO-LARGE'];

async function md5Of(path: string): Promise<string> {
  const hash = createHash('md5');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}
