import type { DryRunReportView } from '../../../src-shared/contract';
import { formatBytes } from '../../../src-shared/domain/bytes';
import { formatRupees } from '../../../src-shared/domain/money';
import { aboutDuration, plural, skipReasonText } from '../../../src-shared/domain/words';

/** A dry run's report: what a sync would send, skip and cost. Nothing in it was uploaded. */
export function DryRunReport({ report }: { report: DryRunReportView }) {
  const { plan, bill, timing } = report;
  const skips = Object.entries(plan.skip);
  const f = bill.after;
  return (
    <section
      className="stack small"
      aria-label="Preview"
      data-testid="dry-run-report"
      style={{ gap: '0.5rem' }}
    >
      <h3 style={{ margin: 0 }}>Preview: nothing has been uploaded</h3>
      <dl className="row" style={{ gap: '1.5rem', margin: 0, flexWrap: 'wrap' }}>
        <Figure
          label="Will upload"
          value={`${plan.upload.count.toLocaleString()} · ${formatBytes(plan.upload.bytes)}`}
          testId="dry-upload"
        />
        <Figure label="Already live" value={plan.alreadyLive.count.toLocaleString()} testId="dry-live" />
        <Figure
          label="Skipped"
          value={skips.reduce((n, [, s]) => n + s.count, 0).toLocaleString()}
          testId="dry-skip"
        />
        {plan.linked.count ? (
          <Figure label="Linked (dedupe)" value={plan.linked.count.toLocaleString()} testId="dry-linked" />
        ) : null}
        {plan.renames.length ? (
          <Figure label="Renames" value={String(plan.renames.length)} testId="dry-renames" />
        ) : null}
      </dl>
      {skips.length ? (
        <ul style={{ margin: 0, paddingLeft: '1.2rem' }}>
          {skips.map(([code, s]) => (
            <li key={code}>
              <span title={code}>{skipReasonText(code)}</span>: {s.count.toLocaleString('en')} (e.g.{' '}
              <span className="mono" style={{ overflowWrap: 'anywhere' }}>
                {s.examples.map((e) => e.name).join(', ')}
              </span>
              )
            </li>
          ))}
        </ul>
      ) : null}
      {plan.onService.count ? (
        <p style={{ margin: 0 }}>
          {plural(plan.onService.count, 'file')} {plan.onService.count === 1 ? 'has' : 'have'} bytes already
          live in “{report.bucket}” ({plan.onService.sameName} under the same name).{' '}
          {report.dedupe
            ? 'Content dedupe links them: not sent.'
            : `They are sent again; content dedupe (Settings) would save ${plural(bill.dedupeSaves.requests, 'request')} and ${formatRupees(bill.dedupeSaves.dailyRentPaise)} a day.`}
        </p>
      ) : null}
      {plan.identical.length ? (
        <p style={{ margin: 0 }}>
          Identical content at {plural(plan.identical.length, 'group')} of paths, e.g.{' '}
          <span className="mono" style={{ overflowWrap: 'anywhere' }}>
            {plan.identical[0]?.paths.slice(0, 3).join(', ')}
          </span>
          .
        </p>
      ) : null}
      <p style={{ margin: 0 }} data-testid="dry-bill">
        Storage {formatBytes(bill.bytesNow)} → <strong>{formatBytes(bill.bytesAfter)}</strong>; rent{' '}
        {formatRupees(bill.dailyRentNowPaise)} →{' '}
        <strong className="num">{formatRupees(bill.dailyRentAfterPaise)}</strong> a day (
        {formatRupees(bill.monthlyAfterPaise)} a month; a day under one paisa is free).
      </p>
      <p
        style={{ margin: 0 }}
        data-testid="dry-wallet"
        className={f.coversFloorNow ? undefined : 'error-text'}
      >
        Wallet {formatRupees(bill.walletPaise)}:{' '}
        {f.coversFloorNow
          ? `holds the ${formatRupees(bill.floorPaise)} it must for uploads now`
          : `under the ${formatRupees(bill.floorPaise)} it must hold for uploads now: uploads are refused`}
        {f.underFloorOn
          ? `; falls under it on ${f.underFloorOn} (service clock)`
          : f.coversFloorNow
            ? '; stays above it at this rent'
            : ''}
        . Runway {f.runwayDays === null ? 'unlimited (no rent)' : plural(f.runwayDays, 'day')}.
      </p>
      <p style={{ margin: 0 }} className="muted">
        {plural(timing.requests, 'request')}: {aboutDuration(timing.seconds)} at{' '}
        {timing.limits.requestsPerMinute} a minute (bound by {timing.boundBy}).{' '}
        {timing.assumed.length ? `Assumed ${timing.assumed.join('; ')}.` : ''}
      </p>
      {plan.unreadable.length ? (
        <p className="error-text" style={{ margin: 0 }}>
          {plural(plan.unreadable.length, 'path')} could not be read, e.g. {plan.unreadable[0]?.name}.
        </p>
      ) : null}
    </section>
  );
}

function Figure({ label, value, testId }: { label: string; value: string; testId: string }) {
  return (
    <div>
      <dt className="muted">{label}</dt>
      <dd className="num" data-testid={testId} style={{ margin: 0, fontWeight: 620 }}>
        {value}
      </dd>
    </div>
  );
}
