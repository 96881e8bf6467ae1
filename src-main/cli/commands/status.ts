import {
  officeRefusedSentence,
  officeSentence,
  officeTrustSentence,
} from '../../../src-shared/domain/office-text';
import { statusClock } from '../../../src-shared/domain/status-facts';
import { appStatus, countsLine, fileStatus, NO_HOLDS } from '../../../src-shared/domain/status-model';
import { formatIstTime, formatIstTimeSeconds } from '../../../src-shared/domain/time-format';
import { folderModeText } from '../../../src-shared/domain/words';
import {
  readAppHolds,
  readDeskStatuses,
  readKnowledgeFacts,
  readLeadsFacts,
  readLocalSyncStatus,
} from '../../core';
import { EXIT, parseCommand, withSession } from '../common';
import { forTerminal } from '../terminal-text';

const USAGE = `assets-sync status
  The synced folders with their files counted by state, the files that need attention, the last activity, and
  the office: the desks sharing this address and this desk's share, as the app or a running "assets-sync sync"
  on this data folder sees it (docs/office.md). Reads the local state only: no request is sent.`;

export async function run(argv: string[]): Promise<number> {
  const p = parseCommand('status', argv, { options: {}, usage: USAGE, readOnly: true });
  if (!p.ok) return p.exitCode;
  const { common, out } = p;
  return withSession(common, out, async (s) => {
    const status = readLocalSyncStatus(s.state.db, { failedPerFolder: 50, activity: 10 });
    if (status.folders.length === 0)
      out.emit('No folder is synced yet. Start with "assets-sync sync DIR".', { event: 'status.empty' });
    // The words and counts are the one status model's (src-shared/domain/status-model.ts), the app's
    // own: the holds are the running app's (none when no app runs here), the tallies the database's.
    const holds = readAppHolds(common.dataDir) ?? NO_HOLDS;
    const model = appStatus({
      now: Date.now(),
      holds,
      knowledge: readKnowledgeFacts(s.state.db),
      // The leads' link: the running app's (listening, answering), what the relay held at the last pull.
      leads: readLeadsFacts(s.state.db, common.dataDir, process.env),
      clock: statusClock,
      folders: status.folders.map(({ folder: f, tally }) => ({
        id: f.id,
        path: f.path,
        paused: f.paused,
        problem: f.problem,
        inSync: tally.pending === 0,
        tally,
      })),
    });
    for (const [i, { folder: f, counts, tally, pending, failed }] of status.folders.entries()) {
      const m = model.folders[i]!;
      const attention = m.attention && m.attention !== m.word ? ` · ${m.attention}` : '';
      out.emit(
        `${forTerminal(f.path)} -> bucket ${f.bucket} (${folderModeText(f.mode)}): ${m.word}${attention} · ${countsLine(m.counts)}${m.pendingText ? `\n  ${m.pendingText}` : ''}${f.problem ? `\n  problem: ${forTerminal(f.problem)}` : ''}`,
        {
          event: 'folder',
          id: f.id,
          path: f.path,
          bucket: f.bucket,
          mode: f.mode,
          paused: f.paused,
          problem: f.problem,
          counts,
          // The app's and the engine's counts (state/transitions.ts): pending includes a retry to come.
          tally,
          pending,
          word: m.word,
          state: m.state,
          attention: m.attention,
          pendingBy: m.pendingBy,
        },
      );
      for (const r of failed) {
        const retry = r.nextRetryAt ? `next retry ${formatIstTime(r.nextRetryAt)}` : 'no automatic retry';
        const word = fileStatus(r, m.pendingBy.hold).word;
        out.emit(
          `  ${forTerminal(r.name)} (${word}): ${r.reasonCode} ${forTerminal(r.reason ?? '')} (${retry})`,
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
    if (status.folders.length > 0 || model.knowledge || model.leads?.speaksForApp)
      out.emit(`Overall: ${model.word}${model.detail ? ` (${model.detail})` : ''}`, {
        event: 'overall',
        word: model.word,
        state: model.state,
        counts: model.counts,
        pendingBy: model.pendingBy,
        knowledge: model.knowledge,
        leads: model.leads
          ? { word: model.leads.word, kind: model.leads.kind, detail: model.leads.detail }
          : null,
      });
    for (const a of [...status.activity].reverse()) {
      out.emit(`${formatIstTimeSeconds(a.at)}  ${forTerminal(a.message)}`, { event: 'activity', ...a });
    }
    const desks = readDeskStatuses(common.dataDir);
    if (desks.length === 0)
      out.emit('Office: no engine runs on this data folder now (the app or "assets-sync sync" joins it).', {
        event: 'office',
        running: false,
      });
    for (const d of desks) {
      const peers = d.peers
        .filter((p) => !p.self)
        .map(
          (p) =>
            `\n  ${forTerminal(p.name)} ${forTerminal(p.version)}: about ${Math.round(p.share)}/min, ${p.backlog} waiting${p.holder ? ' (holds the budget)' : ''}`,
        )
        .join('');
      const said = [officeTrustSentence(d), officeRefusedSentence(d)]
        .filter(Boolean)
        .map((x) => `\n  ${forTerminal(x)}.`);
      out.emit(`Office: ${officeSentence(d)}.${said.join('')}${peers}`, {
        event: 'office',
        running: true,
        ...d,
      });
    }
    return EXIT.ok;
  });
}
