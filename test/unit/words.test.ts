import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { dryRunLines } from '../../src-main/cli/commands/sync-dry-run';
import { leadsToCsv } from '../../src-main/core/leads/csv';
import type { StoredLead } from '../../src-main/core/leads/leads-store';
import { pauseReason } from '../../src-main/core/sync/account/account-gate';
import { formatDuration } from '../../src-renderer/lib/format';
import type { Account } from '../../src-shared/api/file-hosting';
import { SYNC_STATE_LABEL } from '../../src-shared/domain/sync-state';
import {
  csvTime,
  formatServiceDay,
  formatServiceTime,
  formatServiceTimeBare,
} from '../../src-shared/domain/time-format';
import {
  aboutDuration,
  codeAsWord,
  folderModeText,
  plural,
  skipReasonText,
} from '../../src-shared/domain/words';

const root = join(import.meta.dirname, '..', '..');
function sources(dir: string): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && /\.(ts|tsx)$/.test(e.name))
    .map((e) => relative(root, join(e.parentPath, e.name)));
}

// Issue 23, "Words, times and money".
describe('one language for people', () => {
  it('counts agree with their noun; no "(s)" in any text the app, the core or the CLI writes', () => {
    expect(plural(1, 'group')).toBe('1 group');
    expect(plural(2, 'group')).toBe('2 groups');
    expect(plural(1000, 'request')).toBe('1,000 requests');
    const offenders: string[] = [];
    for (const dir of ['src-renderer', 'src-shared', 'src-main/core', 'src-main/cli', 'src-main/electron'])
      for (const file of sources(dir)) {
        readFileSync(join(root, file), 'utf8')
          .split('\n')
          .forEach((line, i) => {
            const code = line.replace(/\/\/.*$/, '');
            if (/^\s*(\*|\/\*)/.test(line)) return;
            // A count before a noun with "(s)": "${n} file(s)", "3 group(s)".
            if (/(\d|\}) [a-z ]*[a-z]\(s\)/.test(code)) offenders.push(`${file}:${i + 1}: ${line.trim()}`);
          });
      }
    expect(offenders).toEqual([]);
  });

  it('a short time is "under a second", never "about 0 s"; time left is never "1s"', () => {
    expect(aboutDuration(0.27)).toBe('under a second');
    expect(aboutDuration(0)).toBe('under a second');
    expect(aboutDuration(42)).toBe('about 42 s');
    expect(aboutDuration(4_800)).toBe('about 1 h 20 min');
    expect(formatDuration(0.4)).toBe('under a second');
    expect(formatDuration(7)).toBe('7 s');
    expect(formatDuration(185)).toBe('3 min 5 s');
    // Rounded once, then split: 119.6 s is "2 min 0 s", never "1 min 60 s" (the estimate's app benchmark).
    expect(formatDuration(119.6)).toBe('2 min 0 s');
    expect(formatDuration(59.7)).toBe('1 min 0 s');
    expect(formatDuration(3599.8)).toBe('1 h 0 min');
  });

  it('the dry run names the reasons, not the codes, and says a request total in words', () => {
    const lines = dryRunLines({
      path: '/x',
      bucket: 'b',
      mode: 'upload-only',
      watched: false,
      dedupe: false,
      plan: {
        upload: { count: 1, bytes: 10 },
        alreadyLive: { count: 0, bytes: 0 },
        skip: { 'EXTENSION-NOT-ALLOWED': { count: 3, examples: [{ name: 'setup.exe' }] } },
        onService: { count: 0, sameName: 0 },
        renames: [],
        identical: [],
        unreadable: [],
        linked: { count: 0 },
      },
      bill: {
        bytesNow: 0,
        bytesAfter: 10,
        dailyRentNowPaise: 0,
        dailyRentAfterPaise: 0,
        monthlyAfterPaise: 0,
        folderShareDailyPaise: 0,
        walletPaise: 10_000,
        floorPaise: 5_000,
        after: { coversFloorNow: true, underFloorOn: null, runwayDays: 1 },
        dedupeSaves: { requests: 1, dailyRentPaise: 0 },
      },
      timing: {
        requests: 32,
        seconds: 0.3,
        boundBy: 'requests',
        limits: { requestsPerMinute: 115 },
        assumed: [],
      },
    } as unknown as Parameters<typeof dryRunLines>[0]);
    const text = lines.join('\n');
    expect(text).toContain('Skip, file types the service does not accept: 3 files (e.g. setup.exe).');
    expect(text).not.toContain('EXTENSION-NOT-ALLOWED');
    expect(text).toContain('Requests: 32, under a second at 115 a minute');
    expect(text).toContain('runway 1 day.');
    expect(text).toContain('would save 1 request and');
    expect(skipReasonText('SOMETHING-NEW')).toBe('something new');
  });

  it('money in rupees in every sentence, and "top up" said once', () => {
    const account = (balance: number, arrears: number) =>
      ({
        client: { status: 'ACTIVE' },
        wallet: { balance_paise: balance, min_balance_to_upload_paise: 5000 },
        arrears: { paise: arrears, since: null, deadline: null },
      }) as unknown as Account;
    expect(pauseReason(account(0, 0)).message).toBe(
      'The wallet holds ₹0.00; uploads need ₹50.00. Top up to resume.',
    );
    expect(pauseReason(account(0, 2)).message).toBe(
      'Uploads are paused: ₹0.02 of rent is unpaid. Top up the wallet to resume.',
    );
    for (const m of [pauseReason(account(0, 0)).message, pauseReason(account(0, 2)).message]) {
      expect(m).not.toMatch(/paise/);
      expect(m.match(/top (it )?up/gi)).toHaveLength(1);
    }
  });

  it('one state, one name: the sidebar says what the folder says', () => {
    expect(SYNC_STATE_LABEL.idle).toBe('In sync');
  });
});

describe('one date-time format, IST, labelled once; CSVs with +05:30', () => {
  it("the service's times in the app's format, with or without the label", () => {
    expect(formatServiceTime('2026-11-26 00:00')).toBe('26 Nov 2026, 00:00 IST');
    expect(formatServiceTimeBare('2026-11-26 00:00')).toBe('26 Nov 2026, 00:00');
    expect(formatServiceTime('2026-11-25T01:54:00.000Z')).toBe('25 Nov 2026, 07:24 IST');
    expect(formatServiceTime('soon')).toBe('soon');
    expect(formatServiceDay('2026-11-25')).toBe('25 Nov');
  });

  it('every CSV time is ISO 8601 with its offset, whatever form it was kept in', () => {
    expect(csvTime('2026-11-29 07:24')).toBe('2026-11-29T07:24:00+05:30');
    expect(csvTime('2026-11-25T01:54:07.000Z')).toBe('2026-11-25T07:24:07+05:30');
    expect(csvTime(null)).toBe('');
    const lead = {
      receivedAt: '2026-11-25T01:54:00.000Z',
      event: 'LEAD-CAPTURED',
      askedForAPerson: false,
      name: 'Neha',
      email: 'n@example.com',
      phone: '+91 90000 22222',
      note: null,
      botName: 'b',
      businessName: 'x',
      conversationId: 7,
      visitorRef: 'v',
      startedAt: '2026-11-25 07:20',
      handledAt: null,
    } as unknown as StoredLead;
    const [, row] = leadsToCsv([lead]).split('\r\n');
    const cells = row!.split(',');
    expect(cells[0]).toBe('2026-11-25T07:24:00+05:30');
    expect(cells[11]).toBe('2026-11-25T07:20:00+05:30');
    expect(cells[12]).toBe('');
  });

  it('a code without words of its own is said as one; a folder mode as the card says it', () => {
    expect(codeAsWord('ACTIVE')).toBe('Active');
    expect(codeAsWord('IN-GRACE')).toBe('In grace');
    expect(folderModeText('upload-only')).toBe('upload only');
    expect(folderModeText('mirror')).toBe('mirror');
  });
});
