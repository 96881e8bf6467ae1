import { formatIstTime, formatIstTimeSeconds } from '../../../src-shared/domain/time-format';
import { readLocalSyncStatus } from '../../core';
import { EXIT, parseCommand, withSession } from '../common';
import { forTerminal } from '../terminal-text';

const USAGE = `assets-sync status
  The synced folders with their files counted by state, the files that need attention, and the last activity.
  Reads the local state only: no request is sent.`;

export async function run(argv: string[]): Promise<number> {
  const p = parseCommand('status', argv, { options: {}, usage: USAGE, readOnly: true });
  if (!p.ok) return p.exitCode;
  const { common, out } = p;
  return withSession(common, out, async (s) => {
    const status = readLocalSyncStatus(s.state.db, { failedPerFolder: 50, activity: 10 });
    if (status.folders.length === 0)
      out.emit('No folder is synced yet. Start with "assets-sync sync DIR".', { event: 'status.empty' });
    for (const { folder: f, counts, pending, failed } of status.folders) {
      const summary = Object.entries(counts)
        .filter(([, n]) => n > 0)
        .map(([st, n]) => `${st} ${n}`)
        .join(', ');
      out.emit(
        `${forTerminal(f.path)} -> ${f.bucket} (${f.mode}${f.paused ? ', paused' : ''}): ${summary || 'no files'}${pending === 0 ? '; in sync' : `; ${pending} pending`}${f.problem ? `\n  problem: ${forTerminal(f.problem)}` : ''}`,
        {
          event: 'folder',
          id: f.id,
          path: f.path,
          bucket: f.bucket,
          mode: f.mode,
          paused: f.paused,
          problem: f.problem,
          counts,
          pending,
        },
      );
      for (const r of failed) {
        const retry = r.nextRetryAt ? `next retry ${formatIstTime(r.nextRetryAt)}` : 'no automatic retry';
        out.emit(
          `  FAILED ${forTerminal(r.name)}: ${r.reasonCode} ${forTerminal(r.reason ?? '')} (${retry})`,
          {
            event: 'file',
            id: r.id,
            folderId: f.id,
            name: r.name,
            state: r.state,
            reasonCode: r.reasonCode,
            reason: r.reason,
            nextRetryAt: r.nextRetryAt,
          },
        );
      }
    }
    for (const a of [...status.activity].reverse()) {
      out.emit(`${formatIstTimeSeconds(a.at)}  ${forTerminal(a.message)}`, { event: 'activity', ...a });
    }
    return EXIT.ok;
  });
}
