import { resolve } from 'node:path';
import { invalidBucketMessage, isValidBucket } from '../../../src-shared/domain/bucket';
import { appError } from '../../../src-shared/errors';
import { createSyncEngine, type SettledSummary, serviceIdentity } from '../../core';
import { EXIT, parseCommand, withConnection } from '../common';
import { forTerminal } from '../terminal-text';
import { bandwidthOption } from './sync-bwlimit';
import { progressLine } from './sync-progress';
import { type Unreadable, unreadableLines, unreadableOf } from './sync-unreadable';

const USAGE = `assets-sync sync DIR [--bucket B] [--mirror] [--once] [--concurrency N] [--polling]
  Keeps DIR in sync with a bucket: every file becomes a live CDN URL, exactly once.
  --bucket B       the bucket (default: the account's default bucket)
  --mirror         a file deleted locally is deleted on the service too (default: upload-only)
  --once           scan, upload what is pending, wait until settled, then exit:
                   0 when every file is live or skipped for a stated reason,
                   3 when that holds but some file or folder could not be read (each is named),
                   1 otherwise
  --concurrency N  uploads at once (default 4)
  --polling        poll the folder instead of native events (network shares)
  --bwlimit RATE   upload limit for this run, rclone's syntax: 512k, 2M, off; or a weekly
                   timetable "08:00,512k 19:00,off" (entries may start with a day: Mon-08:00,2M;
                   "pause" stops sending in a window)`;

export async function run(argv: string[]): Promise<number> {
  const p = parseCommand('sync', argv, {
    options: {
      bucket: { type: 'string' },
      mirror: { type: 'boolean', default: false },
      once: { type: 'boolean', default: false },
      concurrency: { type: 'string' },
      polling: { type: 'boolean', default: false },
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
  const bandwidth = bandwidthOption(values.bwlimit);
  if (!bandwidth.ok) {
    out.error(bandwidth.error);
    return EXIT.usage;
  }

  return withConnection(common, out, async (s) => {
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
      ...(bandwidth.value ? { bandwidth: bandwidth.value } : {}),
    });
    const tty = !common.json && process.stderr.isTTY === true;
    let barShown = false;
    const clearBar = () => {
      if (barShown) process.stderr.write('\r\x1b[2K');
      barShown = false;
    };
    engine.on('file', (e) => {
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
        const retry = e.nextRetryAt ? ` (retry at ${new Date(e.nextRetryAt).toLocaleTimeString()})` : '';
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
    for (const name of ['paused', 'resumed', 'stopped', 'error', 'folder-in-sync'] as const) {
      engine.on(name, (payload) => {
        clearBar();
        const text =
          'message' in payload
            ? `${name}: ${forTerminal(payload.message)}`
            : 'folderId' in payload
              ? `${forTerminal(engine.listFolders().find((f) => f.id === payload.folderId)?.path ?? 'The folder')} is in sync.`
              : `${name}: ${JSON.stringify(payload)}`;
        out.emit(text, {
          event: name,
          ...payload,
        });
      });
    }

    await engine.start();
    const existing = engine.listFolders().find((f) => f.path === dir);
    const mode = values.mirror ? 'mirror' : 'upload-only';
    const folder = existing
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
    if (!folder.ok) {
      out.error(folder.error);
      await engine.stop();
      return EXIT.failed;
    }
    out.note(
      `Syncing ${forTerminal(dir)} to bucket "${bucket}" (${mode})${once ? ', once' : '; Ctrl-C stops'}.`,
    );

    let interrupted = false;
    const stopSignal = new Promise<void>((res) => {
      const onSignal = () => {
        interrupted = true;
        res();
      };
      process.once('SIGINT', onSignal);
      process.once('SIGTERM', onSignal);
    });
    let summary: SettledSummary | null = null;
    if (once) {
      summary = await Promise.race([engine.waitUntilSettled(), stopSignal.then(() => null)]);
    } else {
      await Promise.race([stopSignal, new Promise<void>((res) => engine.on('stopped', () => res()))]);
    }
    const unreadable = once ? unreadableOf(engine, folderErrors) : [];
    await engine.stop();
    summary ??= {
      counts: engine.listFolders().find((f) => f.path === dir)?.counts ?? ({} as SettledSummary['counts']),
      stopped: engine.state.stopped,
      allDone: false,
    };
    clearBar();
    const counts = Object.entries(summary.counts)
      .filter(([, n]) => n > 0)
      .map(([st, n]) => `${st} ${n}`)
      .join(', ');
    out.emit(
      `${summary.allDone ? (unreadable.length ? 'In sync, except what could not be read' : 'In sync') : interrupted ? 'Interrupted' : 'Not all files are live'}: ${counts || 'no files'}.`,
      {
        event: 'summary',
        allDone: summary.allDone,
        interrupted,
        counts: summary.counts,
        stopped: summary.stopped,
        unreadable,
      },
    );
    if (unreadable.length && !common.json) process.stdout.write(`${unreadableLines(unreadable)}\n`);
    if (summary.stopped) out.error(appError(summary.stopped.code, summary.stopped.message));
    if (!summary.allDone) return EXIT.failed;
    return unreadable.length ? EXIT.unreadable : EXIT.ok;
  });
}
