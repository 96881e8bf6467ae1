import { resolve, sep } from 'node:path';
import { invalidBucketMessage, isValidBucket } from '../../../src-shared/domain/bucket';
import { officeSentence } from '../../../src-shared/domain/office-text';
import { countsLine, folderStatus, NO_HOLDS } from '../../../src-shared/domain/status-model';
import { formatIstTime } from '../../../src-shared/domain/time-format';
import { folderModeText } from '../../../src-shared/domain/words';
import { appError, ok } from '../../../src-shared/errors';
import {
  createSyncEngine,
  joinAsDesk,
  type OfficeHandle,
  type SettledSummary,
  savedBandwidth,
  serviceIdentity,
  serviceSettingsStore,
} from '../../core';
import { dropEarlyFind } from '../../shared-node/find-run.mjs';
import { type ConnectedSession, EXIT, parseCommand, type Session, withConnection } from '../common';
import { forTerminal } from '../terminal-text';
import { bandwidthOption, uploadLimitLine } from './sync-bwlimit';
import { runDryRun } from './sync-dry-run';
import { progressLine } from './sync-progress';
import { type Unreadable, unreadableLines, unreadableOf } from './sync-unreadable';

/** Activity the command prints: a live file found gone on the service and sent again, a file adopted. */
const TOLD_KINDS = new Set(['remote-gone', 'adopted']);

const USAGE = `assets-sync sync DIR [--bucket B] [--mirror] [--once [--keep]] [--concurrency N] [--polling] [--dry-run [--dedupe]]
  Keeps DIR in sync with a bucket: every file becomes a live CDN URL, exactly once.
  --bucket B       the bucket (default: the account's default bucket)
  --mirror         a file deleted locally is deleted on the service too (default: upload only, the online copy is kept)
  --once           scan, upload what is pending, wait until settled, then exit:
                   0 when every file is live or skipped for a stated reason,
                   3 when that holds but some file or folder found could not be read, or has
                   a name that is not UTF-8 (each is named; the folder is then not "in sync"),
                   1 otherwise; it reports DIR only, and leaves the app's folder list as it
                   was (DIR not added, or its settings unchanged) unless --keep is given
  --keep           with --once: DIR stays in the app's folders (so later runs send only changes)
  --concurrency N  uploads at once (default 4)
  --polling        poll the folder instead of native events (network shares)
  --dry-run        upload nothing: say what a sync would send, skip and cost (GET /me and one listing)
  --dedupe         content dedupe: a file whose bytes are already live in the bucket (another name)
                   is linked to that copy, not sent; with --dry-run, counted as linked
  --bwlimit RATE   upload limit for this run, rclone's syntax: 512k, 2M, off; or a weekly
                   timetable "08:00,512k 19:00,off" (entries may start with a day: Mon-08:00,2M;
                   "pause" stops sending in a window)`;

export async function run(argv: string[]): Promise<number> {
  const p = parseCommand('sync', argv, {
    options: {
      bucket: { type: 'string' },
      mirror: { type: 'boolean', default: false },
      once: { type: 'boolean', default: false },
      keep: { type: 'boolean', default: false },
      concurrency: { type: 'string' },
      polling: { type: 'boolean', default: false },
      'dry-run': { type: 'boolean', default: false },
      dedupe: { type: 'boolean', default: false },
      bwlimit: { type: 'string' },
    },
    usage: USAGE,
    positionals: { min: 1, max: 1 },
  });
  if (!p.ok) return p.exitCode;
  const { common, out, values } = p;
  const dir = resolve(p.positionals[0]!);
  if (values.bucket !== undefined && !isValidBucket(values.bucket)) {
    out.error(appError('BUCKET-INVALID', invalidBucketMessage(values.bucket)));
    return EXIT.usage;
  }
  const concurrency = values.concurrency === undefined ? 4 : Number(values.concurrency);
  if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > 32) {
    out.error(appError('USAGE', '--concurrency must be a whole number from 1 to 32.'));
    return EXIT.usage;
  }
  const once = values.once === true;
  const keep = values.keep === true;
  if (keep && !once) {
    out.error(
      appError('USAGE', "--keep goes with --once: without --once, DIR is one of the app's folders anyway."),
    );
    return EXIT.usage;
  }
  const bandwidth = bandwidthOption(values.bwlimit);
  if (!bandwidth.ok) {
    out.error(bandwidth.error);
    return EXIT.usage;
  }
  const bw = bandwidth.value;
  if (values['dry-run'])
    return withConnection(common, out, (s) =>
      runDryRun(s, out, {
        path: dir,
        ...(values.bucket !== undefined ? { bucket: values.bucket } : {}),
        ...(values.mirror ? { mode: 'mirror' as const } : {}),
        dedupe: values.dedupe === true,
      }),
    );

  // A desk of the office from before its client is made: the client's budget is then the office's.
  let office: OfficeHandle | null = null;
  let officeSaid = '';
  const joinTheOffice = (s: Session) => {
    office = joinAsDesk({
      dataDir: common.dataDir,
      settings: serviceSettingsStore(s.state.db),
      secrets: s.state.secrets,
      program: 'sync',
      log: (line) => out.note(line),
      onChange: (st) => {
        // Said when the office's shape changes (desks, mode), not at each new share.
        const key = `${st.mode} ${st.desks} ${st.holder}`;
        if (key === officeSaid) return;
        officeSaid = key;
        out.emit(null, { event: 'office', ...st });
        if (!common.json && st.mode === 'office') out.note(officeSentence(st));
      },
    });
  };
  return withConnection(
    common,
    out,
    async (s) => {
      try {
        return await syncWith(s);
      } finally {
        await (office as OfficeHandle | null)?.close();
      }
    },
    process.env,
    joinTheOffice,
  );

  async function syncWith(s: ConnectedSession): Promise<number> {
    // A reader that goes away (`| head`, a closed terminal) ends the run as Ctrl-C does, so the
    // cleanup still runs: a --once folder is not left in the app's list (issue 23). Listened for
    // from the start: a write to a closed pipe with no listener would end the process at once.
    let pipeClosed = (): void => undefined;
    const closedPipe = new Promise<void>((res) => {
      pipeClosed = res;
    });
    process.stdout.on('error', (e: NodeJS.ErrnoException) => {
      if (e.code === 'EPIPE' || e.code === 'ERR_STREAM_DESTROYED') pipeClosed();
    });
    let bucket = values.bucket;
    if (bucket === undefined) {
      const me = await s.client.me();
      bucket = me.ok ? me.value.client.default_bucket : 'default';
    }
    const engine = createSyncEngine({
      db: s.state.db,
      client: s.client,
      service: serviceIdentity(s.connection, common.dataDir),
      concurrency,
      watch: !once,
      // --once syncs DIR alone: the app's other folders wait for the app (or a run of their own).
      onlyFolder: once ? (f) => f.path === dir : null,
      // No remote-index keeper runs beside the CLI: DIR's live rows are checked against its bucket's
      // listing at start, and a copy deleted on the service is sent again (issue 18).
      checkBucketAtStart: true,
      contentDedupe: () => values.dedupe === true,
      ...(bw ? { bandwidth: bw } : {}),
    });
    // With --once only DIR is reported: events of the app's other folders are left out.
    const ofDir = new Map<number, boolean>();
    const isDir = (folderId: number): boolean => {
      let known = ofDir.get(folderId);
      if (known === undefined) {
        known = engine.listFolders().find((f) => f.id === folderId)?.path === dir;
        ofDir.set(folderId, known);
      }
      return known;
    };
    const tty = !common.json && process.stderr.isTTY === true;
    let barShown = false;
    const clearBar = () => {
      if (barShown) process.stderr.write('\r\x1b[2K');
      barShown = false;
    };
    engine.on('file', (e) => {
      if (once && !isDir(e.folderId)) return;
      if (common.json) {
        out.emit(null, { event: 'file', ...e });
        return;
      }
      if (
        e.to === 'LIVE' ||
        e.to === 'SKIPPED' ||
        e.to === 'FAILED' ||
        e.to === 'DELETED' ||
        e.to === 'PAUSED'
      ) {
        clearBar();
        const why = e.to === 'LIVE' ? (e.remoteUrl ?? '') : `${e.reasonCode ?? ''} ${e.reason ?? ''}`.trim();
        const retry = e.nextRetryAt ? ` (retry at ${formatIstTime(e.nextRetryAt)})` : '';
        process.stdout.write(`${e.to.padEnd(7)} ${forTerminal(e.name)}  ${forTerminal(why)}${retry}\n`);
      }
    });
    engine.on('progress', (pr) => {
      if (common.json) out.emit(null, { event: 'progress', ...pr });
      else if (tty) {
        process.stderr.write(`\r\x1b[2K${progressLine(pr)}`);
        barShown = true;
      }
    });
    // A folder no row can stand for (its root could not be listed) is named from its error.
    const folderErrors: Unreadable[] = [];
    engine.on('error', (e) => {
      if (e.code !== 'FOLDER-UNREADABLE') return;
      const path = engine.listFolders().find((f) => f.id === e.folderId)?.path ?? '';
      folderErrors.push({ path, code: e.code, message: e.message });
    });
    for (const name of ['paused', 'resumed', 'stopped', 'error'] as const) {
      engine.on(name, (payload) => {
        if (once && 'folderId' in payload && typeof payload.folderId === 'number' && !isDir(payload.folderId))
          return;
        clearBar();
        const text =
          'message' in payload
            ? `${name}: ${forTerminal(payload.message)}`
            : `${name}: ${JSON.stringify(payload)}`;
        out.emit(text, { event: name, ...payload });
      });
    }
    // Nothing left to do is not "in sync" while a file it found is not synced (unreadable, or a name
    // the service cannot take): the folder is then only settled, and says how many wait on the person.
    engine.on('folder-in-sync', ({ folderId }) => {
      if (once && !isDir(folderId)) return;
      clearBar();
      const f = engine.listFolders().find((x) => x.id === folderId);
      const path = f?.path ?? '';
      const notSynced =
        unreadableOf(engine, [], folderId).length + folderErrors.filter((u) => isUnder(u.path, path)).length;
      const shown = forTerminal(path || 'The folder');
      // The folder's word is the status model's, as the app and `status` say it: a file failed for good
      // is "1 needs attention", never "in sync".
      const m = f ? folderStatus({ ...f, inSync: true }, { holds: NO_HOLDS }) : null;
      if (m && m.state !== 'idle' && notSynced === 0)
        out.emit(`${shown} is settled: ${m.word} · ${countsLine(m.counts)}.`, {
          event: 'folder-settled',
          folderId,
          notSynced: m.counts.failed,
          word: m.word,
        });
      else if (notSynced === 0) out.emit(`${shown} is in sync.`, { event: 'folder-in-sync', folderId });
      else
        out.emit(
          `${shown} is settled, but ${notSynced} found ${notSynced === 1 ? 'is' : 'are'} not synced (the SKIPPED lines say why).`,
          { event: 'folder-settled', folderId, notSynced },
        );
    });

    // What the service did behind this run's back, and what the run did about it, in the output too.
    engine.on('activity', (a) => {
      if (!TOLD_KINDS.has(a.kind) || (once && a.folderId !== null && !isDir(a.folderId))) return;
      clearBar();
      out.emit(forTerminal(a.message), {
        event: 'activity',
        kind: a.kind,
        folderId: a.folderId,
        message: a.message,
      });
    });

    await engine.start();
    const existing = engine.listFolders().find((f) => f.path === dir);
    // --once without --keep changes nothing in the app's list: an app folder is synced as it is set.
    const asSet = once && !keep && existing;
    if (
      asSet &&
      ((values.bucket !== undefined && values.bucket !== existing.bucket) ||
        (values.mirror && existing.mode !== 'mirror'))
    ) {
      out.error(
        appError(
          'FOLDER-SETTINGS',
          `${dir} is one of the app's folders, set to bucket "${existing.bucket}" (${folderModeText(existing.mode)}); --once leaves it as set. Add --keep to change its settings, or leave out --bucket/--mirror.`,
        ),
      );
      await engine.stop();
      return EXIT.usage;
    }
    if (asSet) bucket = existing.bucket;
    const mode = asSet ? existing.mode : values.mirror ? 'mirror' : 'upload-only';
    const folder = asSet
      ? ok(existing)
      : existing
        ? await engine.updateFolder(existing.id, {
            bucket,
            mode,
            ...(values.polling ? { watcher: 'polling' as const } : {}),
          })
        : await engine.addFolder({
            path: dir,
            bucket,
            mode,
            ...(values.polling ? { watcher: 'polling' as const } : {}),
          });
    // DIR's first scan has taken the walk the launcher started for it (bin/assets-sync.mjs), or never will.
    dropEarlyFind();
    if (!folder.ok) {
      out.error(folder.error);
      await engine.stop();
      return EXIT.failed;
    }
    out.note(
      `Syncing ${forTerminal(dir)} to bucket "${bucket}" (${folderModeText(mode)})${once ? ', once' : '; Ctrl-C stops'}.`,
    );
    out.note(uploadLimitLine(engine.bandwidth(), values.bwlimit, savedBandwidth(s.state.db), Date.now()));

    let interrupted = false;
    const stopSignal = new Promise<void>((res) => {
      const onSignal = () => {
        interrupted = true;
        res();
      };
      process.once('SIGINT', onSignal);
      process.once('SIGTERM', onSignal);
      void closedPipe.then(onSignal);
    });
    let summary: SettledSummary | null = null;
    if (once) {
      summary = await Promise.race([engine.waitUntilSettled(), stopSignal.then(() => null)]);
    } else {
      await Promise.race([stopSignal, new Promise<void>((res) => engine.on('stopped', () => res()))]);
    }
    const unreadable = once ? unreadableOf(engine, folderErrors).filter((u) => isUnder(u.path, dir)) : [];
    // DIR's own counts: the engine's summary covers every folder of the app.
    const dirCounts =
      engine.listFolders().find((f) => f.path === dir)?.counts ?? ({} as SettledSummary['counts']);
    const dirDone = Object.entries(dirCounts).every(
      ([st, n]) => n === 0 || st === 'LIVE' || st === 'SKIPPED' || st === 'DELETED',
    );
    summary = summary
      ? { ...summary, counts: dirCounts, allDone: !summary.stopped && dirDone }
      : { counts: dirCounts, stopped: engine.state.stopped, allDone: false };
    // A folder this run added goes again (its files on the service stay), unless --keep.
    const kept = !once || keep || !!existing;
    if (!kept) await engine.removeFolder(folder.value.id);
    await engine.stop();
    clearBar();
    // The categories and words of the app's folder card (the status model's): "Live 16 · Skipped 3 · Removed by you 1".
    const tally = engine.listFolders().find((f) => f.path === dir)?.tally;
    const counts = tally
      ? countsLine(tally)
      : Object.entries(summary.counts)
          .filter(([, n]) => n > 0)
          .map(([st, n]) => `${st} ${n}`)
          .join(', ');
    out.emit(
      `${summary.allDone ? (unreadable.length ? `Settled, but ${unreadable.length} found not synced` : 'In sync') : interrupted ? 'Interrupted' : 'Not all files are live'}: ${counts || 'no files'}.`,
      {
        event: 'summary',
        allDone: summary.allDone,
        interrupted,
        counts: summary.counts,
        stopped: summary.stopped,
        unreadable,
        folder: dir,
        kept,
      },
    );
    if (once) out.note(keptNote(dir, !!existing, keep));
    if (unreadable.length && !common.json) process.stdout.write(`${unreadableLines(unreadable)}\n`);
    if (summary.stopped) out.error(appError(summary.stopped.code, summary.stopped.message));
    if (!summary.allDone) return EXIT.failed;
    return unreadable.length ? EXIT.unreadable : EXIT.ok;
  }
}

const isUnder = (path: string, dir: string) => path === dir || path.startsWith(`${dir}${sep}`);

function keptNote(dir: string, existed: boolean, keep: boolean): string {
  const d = forTerminal(dir);
  if (existed)
    return keep
      ? `${d} stays in the app's folders, with the settings of this run (--keep).`
      : `${d} is one of the app's folders: it stays, as it was set.`;
  return keep
    ? `${d} is now one of the app's folders (--keep): the app and later runs send only what changes.`
    : `${d} was synced once and not added to the app's folders; its files stay on the service. A later run finds them live (same name, size and md5) and adopts them, sending only what changed; --keep adds it to the app's folders.`;
}
