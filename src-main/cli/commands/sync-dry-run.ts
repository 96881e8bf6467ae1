import { formatBytes } from '../../../src-shared/domain/bytes';
import { formatRupees } from '../../../src-shared/domain/money';
import { aboutDuration, folderModeText, plural, skipReasonText } from '../../../src-shared/domain/words';
import { type DryRunReport, dryRun } from '../../core';
import { type ConnectedSession, EXIT, type Output } from '../common';
import { forTerminal } from '../terminal-text';

/** `sync DIR --dry-run`: the report, in lines for people or one JSON object (`event: "dry-run"`). */
export async function runDryRun(
  s: ConnectedSession,
  out: Output,
  o: { path: string; bucket?: string; mode?: 'mirror'; dedupe: boolean },
): Promise<number> {
  const r = await dryRun({ client: s.client, db: s.state.db, ...o });
  if (!r.ok) {
    out.error(r.error);
    return EXIT.failed;
  }
  out.emit(dryRunLines(r.value).join('\n'), { event: 'dry-run', ...r.value });
  return EXIT.ok;
}

export function dryRunLines(r: DryRunReport): string[] {
  const { plan, bill, timing } = r;
  const lines = [
    `Dry run of ${forTerminal(r.path)} -> bucket "${r.bucket}" (${folderModeText(r.mode)}${r.watched ? ', watched' : ', not watched yet'}); nothing was uploaded.`,
    `Upload: ${plural(plan.upload.count, 'file')}, ${formatBytes(plan.upload.bytes)}.`,
    `Already live: ${plural(plan.alreadyLive.count, 'file')}, ${formatBytes(plan.alreadyLive.bytes)}.`,
  ];
  for (const [code, s] of Object.entries(plan.skip))
    lines.push(
      `Skip, ${skipReasonText(code)}: ${plural(s.count, 'file')} (e.g. ${s.examples.map((e) => forTerminal(e.name)).join(', ')}).`,
    );
  if (plan.onService.count)
    lines.push(
      `Already on the service (same bytes, ${plan.onService.sameName} under the same name): ${plural(plan.onService.count, 'file')}; ${r.dedupe ? 'linked, not sent' : 'sent again unless content dedupe is on'}.`,
    );
  if (plan.renames.length) lines.push(`Renames: ${plan.renames.length}.`);
  for (const g of plan.identical.slice(0, 5))
    lines.push(`Identical content: ${g.paths.map(forTerminal).join(', ')}.`);
  if (plan.identical.length > 5) lines.push(`... and ${plan.identical.length - 5} more groups.`);
  for (const u of plan.unreadable) lines.push(`Could not read ${forTerminal(u.name)}: ${u.message}`);
  lines.push(
    `Bill: ${formatBytes(bill.bytesNow)} -> ${formatBytes(bill.bytesAfter)} on the service; rent ${formatRupees(bill.dailyRentNowPaise)} -> ${formatRupees(bill.dailyRentAfterPaise)} a day (${formatRupees(bill.monthlyAfterPaise)} a month); this folder's share ${formatRupees(bill.folderShareDailyPaise)} a day.`,
    `Wallet ${formatRupees(bill.walletPaise)}, floor ${formatRupees(bill.floorPaise)}: ${bill.after.coversFloorNow ? 'covers the floor now' : 'under the floor now: uploads are refused'}${bill.after.underFloorOn ? `; under the floor from ${bill.after.underFloorOn} (service clock)` : bill.after.coversFloorNow ? '; stays above it at this rent' : ''}; runway ${bill.after.runwayDays === null ? 'unlimited (no rent)' : plural(bill.after.runwayDays, 'day')}.`,
    `Content dedupe ${r.dedupe ? 'saves' : 'would save'} ${plural(bill.dedupeSaves.requests, 'request')} and ${formatRupees(bill.dedupeSaves.dailyRentPaise)} a day.`,
    `Requests: ${timing.requests.toLocaleString('en')}, ${aboutDuration(timing.seconds)} at ${timing.limits.requestsPerMinute} a minute (bound by ${timing.boundBy}); assumed: ${timing.assumed.join('; ') || 'nothing'}.`,
  );
  return lines;
}
