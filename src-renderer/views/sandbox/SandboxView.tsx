import { useEffect, useState } from 'react';
import { SANDBOX_ADVANCE_DAYS, type SandboxState } from '../../../src-shared/contract/sandbox';
import { formatRupees } from '../../../src-shared/domain/money';
import { formatIstTime } from '../../../src-shared/domain/time-format';
import type { Result } from '../../../src-shared/errors';
import { call } from '../../api/core-ref';
import { Icon } from '../../components/Icon';
import { ViewHeader } from '../../components/ViewHeader';
import { plural } from '../../lib/plural';
import { useAccount } from '../../stores/account-store';
import { useUi } from '../../stores/ui-store';
import './sandbox.css';

type Card = 'clock' | 'wallet' | 'leads' | 'faults';
type Said = { card: Card; tone: 'ok' | 'error'; text: string };

const RATES: [number, string][] = [
  [0, 'Off'],
  [1 / 3, '1 in 3'],
  [1, 'Every upload'],
];
const TOP_UPS = [10_000, 100_000];
const dayLabel = (d: number) => (d === 7 ? 'a week' : plural(d, 'day'));

/** What the real service does instead, one sentence per control (the point of the panel). */
const REAL = {
  clock:
    'On the real service time passes by itself: rent is charged at each midnight IST, and an account 30 days in arrears is closed and its files deleted.',
  wallet:
    'On the real service you top up on its billing page (a top-up pays arrears first, and uploads resume); daily rent is what empties a real wallet, and below ₹50 uploads wait.',
  leads:
    'On the real service a visitor chatting with your bot raises these; the service signs each one and posts it to your webhook URL, retrying after 1 and 5 minutes if the app does not answer.',
  faults:
    'The real service’s storage fails rarely; when it does the upload answers 502 STORAGE-FAILED, nothing is stored, and the app tries again later by itself.',
} as const;

/**
 * Steers the local sandbox (shown only while connected to it): its clock, its wallet, the demo
 * bot's leads and storage faults. The core calls the sandbox's admin surface; the renderer never
 * sees its token.
 */
export function SandboxView() {
  const [state, setState] = useState<SandboxState | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const [said, setSaid] = useState<Said | null>(null);
  const account = useAccount((s) => s.account?.value ?? null);
  const go = useUi((s) => s.go);

  useEffect(() => {
    void call('sandbox.state', {}).then((r) => {
      if (r.ok) setState(r.value);
      else setSaid({ card: 'clock', tone: 'error', text: r.error.message });
    });
  }, []);

  /** Runs one action: one at a time, its outcome said under its card. */
  async function act<T>(
    card: Card,
    label: string,
    run: () => Promise<Result<T>>,
    done: (value: T) => string,
  ): Promise<void> {
    setBusy(label);
    setSaid(null);
    const r = await run();
    setBusy(null);
    setSaid(
      r.ok ? { card, tone: 'ok', text: done(r.value) } : { card, tone: 'error', text: r.error.message },
    );
  }

  const note = (card: Card) =>
    said?.card === card ? (
      <p
        className={said.tone === 'error' ? 'error-text' : 'sandbox-said'}
        role={said.tone === 'error' ? 'alert' : 'status'}
      >
        {said.text}
      </p>
    ) : null;

  const setFaults = (patch: { storageFailRate?: number; connectionResetRate?: number }) =>
    act(
      'faults',
      'faults',
      () => call('sandbox.faults', patch),
      (f) => {
        setState((s) => (s ? { ...s, faults: f } : s));
        return f.storageFailRate === 0 && f.connectionResetRate === 0
          ? 'Faults are off: every upload is stored again.'
          : `Faults on: ${describeRate(f.storageFailRate, 'fail in storage')}; ${describeRate(
              f.connectionResetRate,
              'lose their connection',
            )}.`;
      },
    );

  return (
    <>
      <ViewHeader title="Sandbox" />
      <div className="content stack">
        <p className="muted sandbox-intro">
          The local sandbox is a copy of the service on this computer. Move its clock, its money, its visitors
          and its storage here to see what the app does when each happens for real.
        </p>
        <div className="sandbox-grid">
          <section className="card stack" aria-labelledby="sandbox-clock">
            <h2 id="sandbox-clock">
              <Icon name="activity" /> Service clock
            </h2>
            <p>
              Service time{' '}
              <strong className="num" data-testid="sandbox-time">
                {state ? formatIstTime(Date.parse(state.clock.now)) : '…'}
              </strong>
            </p>
            <div className="row">
              {SANDBOX_ADVANCE_DAYS.map((days) => (
                <button
                  key={days}
                  type="button"
                  className="btn"
                  disabled={busy !== null}
                  onClick={() =>
                    void act(
                      'clock',
                      `clock-${days}`,
                      () => call('sandbox.advanceClock', { days }),
                      (s) => {
                        setState(s);
                        return `Moved ${dayLabel(days)}: the service’s time is now ${s.clock.ist} IST. Every midnight on the way was billed.`;
                      },
                    )
                  }
                >
                  {busy === `clock-${days}` ? 'Moving…' : `+ ${dayLabel(days)}`}
                </button>
              ))}
            </div>
            <p className="small muted">{REAL.clock}</p>
            {note('clock')}
          </section>

          <section className="card stack" aria-labelledby="sandbox-wallet">
            <h2 id="sandbox-wallet">
              <Icon name="wallet" /> Wallet
            </h2>
            <p className="num" data-testid="sandbox-wallet">
              {account ? (
                <>
                  Holds <strong>{formatRupees(account.wallet.balance_paise)}</strong>
                  {account.arrears.paise > 0 ? (
                    <>
                      {' '}
                      · <strong className="error-text">{formatRupees(account.arrears.paise)}</strong> in
                      arrears
                    </>
                  ) : null}
                </>
              ) : (
                '…'
              )}
            </p>
            <div className="row">
              {TOP_UPS.map((paise) => (
                <button
                  key={paise}
                  type="button"
                  className="btn"
                  disabled={busy !== null}
                  onClick={() =>
                    void act(
                      'wallet',
                      `top-${paise}`,
                      () => call('sandbox.wallet', { topUpPaise: paise }),
                      (w) =>
                        `Topped up ${formatRupees(paise)}: the wallet holds ${formatRupees(w.balancePaise)}${
                          w.arrearsPaise > 0 ? `, ${formatRupees(w.arrearsPaise)} still in arrears` : ''
                        }.`,
                    )
                  }
                >
                  Top up {formatRupees(paise).replace(/\.00$/, '')}
                </button>
              ))}
              <button
                type="button"
                className="btn danger"
                disabled={busy !== null}
                onClick={() =>
                  void act(
                    'wallet',
                    'drain',
                    () => call('sandbox.wallet', { drain: true }),
                    (w) =>
                      `Drained: the wallet holds ${formatRupees(w.balancePaise)}. New uploads wait for a top-up; move the clock a day to fall into arrears.`,
                  )
                }
              >
                Drain the wallet
              </button>
            </div>
            <p className="small muted">{REAL.wallet}</p>
            {note('wallet')}
          </section>

          <section className="card stack" aria-labelledby="sandbox-leads">
            <h2 id="sandbox-leads">
              <Icon name="inbox" /> Leads
            </h2>
            <div className="row">
              {(
                [
                  ['LEAD-CAPTURED', 'Raise a lead'],
                  ['HANDOFF-REQUESTED', 'Raise a handoff'],
                ] as const
              ).map(([event, label]) => (
                <button
                  key={event}
                  type="button"
                  className="btn"
                  disabled={busy !== null || state?.demoBot === false}
                  onClick={() =>
                    void act(
                      'leads',
                      event,
                      () => call('sandbox.raiseLead', { event }),
                      (l) =>
                        `${l.name} ${event === 'HANDOFF-REQUESTED' ? 'asked for a person' : 'left a lead'}: it arrives in Leads in a moment.`,
                    )
                  }
                >
                  {label}
                </button>
              ))}
              <button type="button" className="btn ghost" onClick={() => go('leads')}>
                Open Leads
              </button>
            </div>
            {state?.demoBot === false ? (
              <p className="small error-text">The demo bot is not set up yet; see Knowledge.</p>
            ) : null}
            <p className="small muted">{REAL.leads}</p>
            {note('leads')}
          </section>

          <section className="card stack" aria-labelledby="sandbox-faults">
            <h2 id="sandbox-faults">
              <Icon name="alert" /> Storage faults
            </h2>
            <FaultChoice
              label="Uploads that fail in storage"
              value={state?.faults.storageFailRate ?? 0}
              disabled={busy !== null || !state}
              onChange={(v) => void setFaults({ storageFailRate: v })}
            />
            <FaultChoice
              label="Uploads that lose their connection"
              value={state?.faults.connectionResetRate ?? 0}
              disabled={busy !== null || !state}
              onChange={(v) => void setFaults({ connectionResetRate: v })}
            />
            <p className="small muted">{REAL.faults} Faults last until the sandbox restarts.</p>
            {note('faults')}
          </section>
        </div>
      </div>
    </>
  );
}

function describeRate(rate: number, what: string): string {
  return rate === 0
    ? `no uploads ${what}`
    : rate >= 1
      ? `every upload will ${what}`
      : `1 upload in ${Math.round(1 / rate)} will ${what}`;
}

function FaultChoice(props: { label: string; value: number; disabled: boolean; onChange(v: number): void }) {
  return (
    <div className="stack" style={{ gap: '0.3rem' }}>
      <span className="small">{props.label}</span>
      {/* biome-ignore lint/a11y/useSemanticElements: the same segmented control as the Usage view */}
      <div className="segmented" role="group" aria-label={props.label}>
        {RATES.map(([rate, text]) => (
          <button
            key={text}
            type="button"
            aria-pressed={Math.abs(props.value - rate) < 1e-6}
            disabled={props.disabled}
            onClick={() => props.onChange(rate)}
          >
            {text}
          </button>
        ))}
      </div>
    </div>
  );
}
