import { describe, expect, it } from 'vitest';
import { progressLine } from '../../src-main/cli/commands/sync-progress';
import { backoffDelayMs } from '../../src-main/core/service/retry-policy';
import { DOCUMENTED_RULES, uploadsAllowed } from '../../src-main/core/sync/account/account-gate';
import type { PartsEmitter, SyncEvents } from '../../src-main/core/sync/events';
import { folderMode } from '../../src-main/core/sync/folder-mode';
import { ignoreRules, validatePatterns } from '../../src-main/core/sync/local/ignore-rules';
import { localSkipReason } from '../../src-main/core/sync/local/local-checks';
import { etaSeconds, speedMeter } from '../../src-main/core/sync/progress';
import { canMove, isPending } from '../../src-main/core/sync/state/transitions';
import { FILE_STATES } from '../../src-main/core/sync/types';
import { isAmbiguous } from '../../src-main/core/sync/upload/on-upload-error';
import { formatBytes } from '../../src-shared/domain/bytes';

describe('ignore rules', () => {
  const ignored = ignoreRules('*.psd\nbuild/\n!keep.psd');
  it('ignores dotfiles, temporary and partial files', () => {
    for (const p of [
      '.env',
      'a/.git',
      '~$report.docx',
      'x.tmp',
      'movie.mp4.part',
      'f.crdownload',
      'sub/.DS_Store',
      'Thumbs.db',
      'THUMBS.DB',
    ]) {
      expect(ignored(p), p).toBe(true);
    }
    expect(ignored('.cache', true)).toBe(true);
  });
  it('applies the folder patterns gitignore-style, negation included', () => {
    expect(ignored('art/cover.psd')).toBe(true);
    expect(ignored('keep.psd')).toBe(false);
    expect(ignored('build', true)).toBe(true);
    expect(ignored('build')).toBe(false);
  });
  it('keeps ordinary files, unicode names and names starting with a dash', () => {
    for (const p of ['a.txt', 'sub dir/b c.pdf', 'नमस्ते.png', '-rf.txt', 'tmp.txt', 'part/x.png'])
      expect(ignored(p), p).toBe(false);
  });
  it('reports unreadable patterns instead of throwing later', () => {
    expect(validatePatterns('*.psd\n')).toBeNull();
  });
});

describe('folder modes (one place decides)', () => {
  const sent = { remoteId: 7, oldRemoteId: 3 };
  const never = { remoteId: null, oldRemoteId: null };
  it('mirror: a local delete deletes the remote copy and a replaced version; a rename deletes the old name', () => {
    expect(folderMode('mirror').onLocalDelete(sent)).toMatchObject({ to: 'DELETING', trashOldVersion: true });
    expect(folderMode('mirror').onLocalDelete(never)).toMatchObject({
      to: 'DELETED',
      trashOldVersion: false,
    });
    expect(folderMode('mirror').onRename({ remoteId: 7, state: 'LIVE' }, 'b.png').deleteOldRemote).toBe(true);
    // The deleter won the race: the old name's remote is already gone.
    expect(folderMode('mirror').onRename({ remoteId: 7, state: 'DELETED' }, 'b.png').deleteOldRemote).toBe(
      false,
    );
  });
  it('upload-only: nothing on the service is deleted by a local delete or rename, and the reason says so', () => {
    const gone = folderMode('upload-only').onLocalDelete(sent);
    expect(gone).toMatchObject({ to: 'DELETED', trashOldVersion: false });
    expect(gone.reason).toMatch(/remote copy is kept/);
    expect(folderMode('upload-only').onLocalDelete(never).reason).toBe('Deleted locally.');
    const renamed = folderMode('upload-only').onRename({ remoteId: 7, state: 'LIVE' }, 'b.png');
    expect(renamed.deleteOldRemote).toBe(false);
    expect(renamed.reason).toMatch(/^Renamed to b\.png\. The remote copy under the old name is kept/);
  });
});

describe('file events', () => {
  it('leave only through the bookkeeping: a part of the engine cannot send one itself (checked by tsc)', () => {
    const sent: string[] = [];
    const parts: PartsEmitter = { emit: (event) => void sent.push(event) };
    // @ts-expect-error a row's change is announced by SyncContext.transition / insertNew, never directly
    parts.emit('file', {} as SyncEvents['file']);
    // @ts-expect-error progress is the bookkeeping's too
    parts.emit('progress', {} as SyncEvents['progress']);
    parts.emit('error', { folderId: null, code: 'X', message: 'x' });
    expect(sent).toEqual(['file', 'progress', 'error']);
  });
});

describe('the state machine', () => {
  it('allows the way of a file and refuses shortcuts', () => {
    const path = ['NEW', 'HASHING', 'QUEUED', 'UPLOADING', 'LIVE', 'DELETING', 'DELETED', 'NEW'] as const;
    for (let i = 0; i + 1 < path.length; i++) expect(canMove(path[i]!, path[i + 1]!)).toBe(true);
    expect(canMove('QUEUED', 'LIVE')).toBe(false);
    expect(canMove('NEW', 'UPLOADING')).toBe(false);
    expect(canMove('DELETED', 'LIVE')).toBe(false);
    expect(canMove('LIVE', 'QUEUED')).toBe(false);
    expect(canMove('SKIPPED', 'UPLOADING')).toBe(false);
    // Another account: a live row is verified through a journaled intent, never marked live again directly.
    expect(canMove('LIVE', 'UPLOADING')).toBe(true);
    expect(canMove('LIVE', 'LIVE')).toBe(false);
  });
  it('every state can reach DELETED or NEW (nothing is a trap)', () => {
    for (const s of FILE_STATES)
      expect(canMove(s, 'NEW') || canMove(s, 'DELETED') || canMove(s, 'QUEUED'), s).toBe(true);
  });
  it('counts a FAILED row as pending only while a retry is scheduled', () => {
    expect(isPending('FAILED', 123)).toBe(true);
    expect(isPending('FAILED', null)).toBe(false);
    expect(isPending('LIVE', null)).toBe(false);
    expect(isPending('UPLOADING', null)).toBe(true);
  });
});

describe('backoff', () => {
  const policy = { baseMs: 1000, capMs: 8000, maxAttempts: 5 };
  it('doubles, stays within [half, full] of the step, and is capped', () => {
    expect(backoffDelayMs(1, policy, undefined, () => 0)).toBe(500);
    expect(backoffDelayMs(1, policy, undefined, () => 1)).toBe(1000);
    expect(backoffDelayMs(3, policy, undefined, () => 1)).toBe(4000);
    expect(backoffDelayMs(10, policy, undefined, () => 1)).toBe(8000);
  });
  it('jitters: two files failing together do not come back together', () => {
    const a = backoffDelayMs(2, policy);
    const samples = new Set(Array.from({ length: 20 }, () => backoffDelayMs(2, policy)));
    expect(samples.size).toBeGreaterThan(1);
    expect(a).toBeGreaterThanOrEqual(1000);
  });
  it("lets the server's Retry-After win when longer", () => {
    expect(backoffDelayMs(1, policy, 30_000, () => 0)).toBe(30_000);
  });
});

describe('checks that cost no request', () => {
  it('skips a disallowed extension, an empty file and one over the ceiling, with the reason', () => {
    expect(localSkipReason('a.exe', 10, DOCUMENTED_RULES)?.code).toBe('EXTENSION-NOT-ALLOWED');
    expect(localSkipReason('Makefile', 10, DOCUMENTED_RULES)?.message).toMatch(/no extension/);
    expect(localSkipReason('a.txt', 0, DOCUMENTED_RULES)?.code).toBe('EMPTY');
    expect(localSkipReason('a.mp4', 209_715_201, DOCUMENTED_RULES)?.code).toBe('FILE-TOO-LARGE');
    expect(localSkipReason('a.mp4', 209_715_200, DOCUMENTED_RULES)).toBeNull();
    expect(localSkipReason('A.PNG', 1, DOCUMENTED_RULES)).toBeNull();
  });
});

describe('reactions', () => {
  it('treats only replies that may hide a stored file as ambiguous', () => {
    expect(isAmbiguous({ code: 'NETWORK', message: '', reaction: 'retry' })).toBe(true);
    expect(isAmbiguous({ code: 'TIMEOUT', message: '', reaction: 'retry' })).toBe(true);
    expect(isAmbiguous({ code: 'HTTP-500', status: 500, message: '', reaction: 'retry' })).toBe(true);
    expect(isAmbiguous({ code: 'STORAGE-FAILED', status: 502, message: '', reaction: 'retry' })).toBe(false);
    expect(isAmbiguous({ code: 'RATE-LIMITED', status: 429, message: '', reaction: 'retry' })).toBe(false);
  });
  it('reads /me: uploads allowed only without arrears and above the floor', () => {
    const account = {
      client: { id: 1, name: 'x', status: 'ACTIVE', default_bucket: 'default' },
      usage: { files_count: 0, bytes_used: 0, daily_rent_paise: 0, monthly_estimate_paise: 0 },
      wallet: { balance_paise: 5000, min_balance_to_upload_paise: 5000 },
      arrears: { paise: 0, since: null, deadline: null },
      pricing: { per_gb_month_paise: 500, max_file_bytes: 1, allowed_extensions: [], grace_days: 30 },
    };
    expect(uploadsAllowed(account)).toBe(true);
    expect(uploadsAllowed({ ...account, wallet: { ...account.wallet, balance_paise: 4999 } })).toBe(false);
    expect(uploadsAllowed({ ...account, arrears: { paise: 1, since: 'x', deadline: 'y' } })).toBe(false);
  });
});

describe('progress', () => {
  it('measures speed and derives an ETA', () => {
    const m = speedMeter(1000);
    for (let t = 0; t <= 5000; t += 200) m.add(200_000, t);
    const bps = m.bytesPerSecond(5000);
    expect(bps).toBeGreaterThan(800_000);
    expect(bps).toBeLessThan(1_200_000);
    expect(etaSeconds(2_000_000, 1_000_000)).toBe(2);
    expect(etaSeconds(10, 0)).toBeNull();
  });
  // Issue 31: a 190 MiB upload that took 9 s said "4 h 21 min left" in its first second: the average
  // started at zero and read a fraction of the speed.
  it('reads the real speed from the first samples, not a fraction of it', () => {
    const m = speedMeter(3000);
    for (let t = 0; t <= 300; t += 100) m.add(2_000_000, t);
    const bps = m.bytesPerSecond(300);
    expect(bps).toBeGreaterThan(15_000_000);
    expect(bps).toBeLessThan(25_000_000);
  });
  // Issue 31: 300 small files at the request limit wait a minute for the budget with nothing in flight; the
  // speed decayed over the wait, and the last burst's 60 KB said 4.4 s for 0.7 s.
  it('a spell with nothing in flight is not the link slowing down', () => {
    const m = speedMeter(3000);
    for (let t = 0; t <= 3000; t += 100) m.add(100_000, t);
    expect(m.idle(60_000)).toBeGreaterThan(900_000);
    m.add(100_000, 60_100);
    expect(m.bytesPerSecond(60_100)).toBeGreaterThan(900_000);
  });
  it('draws files, bytes, speed and ETA', () => {
    const line = progressLine(
      {
        filesDone: 3,
        filesTotal: 10,
        bytesSent: 5_000_000,
        bytesTotal: 10_000_000,
        bytesPerSecond: 1_000_000,
        etaSeconds: 5,
        etaBound: 'bytes',
      },
      10,
    );
    expect(line).toBe(
      `[#####.....] 3/10 files  ${formatBytes(5_000_000)}/${formatBytes(10_000_000)}  ${formatBytes(1_000_000)}/s  ETA 5s`,
    );
  });
});
