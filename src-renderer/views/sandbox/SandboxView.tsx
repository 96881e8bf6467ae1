import { useEffect, useState } from 'react';
import type { Account } from '../../../src-shared/api/file-hosting';
import { SANDBOX_ADVANCE_DAYS, type SandboxState } from '../../../src-shared/contract/sandbox';
import { formatRupees } from '../../../src-shared/domain/money';
import { formatIstTime, formatServiceTime } from '../../../src-shared/domain/time-format';
import { plural } from '../../../src-shared/domain/words';
import { call } from '../../api/core-ref';
import { Icon } from '../../components/Icon';
import { SCROLL_REGION, ViewHeader } from '../../components/ViewHeader';
import { formatBytes } from '../../lib/format';
import { useAccount } from '../../stores/account-store';
import { useUi } from '../../stores/ui-store';
import { copyText } from '../leads/copy';
import { ActionButton, SandboxActionsProvider, SandboxCard, useSandboxActions } from './SandboxCard';
import './sandbox.css';

const RATES: [number, string][] = [
  [0, 'Off'],
  [1 / 3, '1 in 3'],
  [1, 'Every upload'],
];
const TOP_UPS = [10_000, 100_000];
const dayLabel = (d: number) => (d === 7 ? 'a week' : plural(d, 'day'));

/** What the real service does instead, one sentence per card (the point of the panel). */
const REAL = {
  clock:
    'On the real service time passes by itself: rent is charged at each midnight IST, and an account 30 days in arrears is closed and its files deleted.',
  wallet:
    'On the real service you top up on its billing page (a top-up pays arrears first, and uploads resume); daily rent is what empties a real wallet, and below ₹50 uploads wait.',
  leads:
    'On the real service a visitor chatting with your bot raises these; the service signs each one and posts it to your webhook URL, retrying after 1 and 5 minutes if the app does not answer.',
  faults:
    'The real service’s storage fails rarely; when it does the upload answers 502 STORAGE-FAILED, nothing is stored, and the app tries again later by itself. It answers 429 past 120 requests a minute from one address: the app waits as Retry-After says and sends again. Faults last until the sandbox restarts.',
  kb: 'The real knowledge-entry API can be out of reach (your network, its outage) or ask for fewer requests (429 with Retry-After); another editor can change an entry at any time. The app keeps your edits and sends them when it can, and shows a conflict rather than overwrite.',
  api: 'On the real service your key comes from its dashboard and is stored in the system keychain (assets-sync login); the app never shows an account’s key. This one is the local sandbox’s alone.',
  remote:
    'On the real service another device, a script or the service’s console can delete a file; nobody tells this app. It learns it at the file index’s next walk of the bucket, at most daily, or when a read answers 410.',
} as const;

/**
 * Steers the local sandbox (shown only while connected to it): its clock, its wallet, the demo
 * bot's leads, storage faults, the knowledge-entry API's states and a delete behind the app's back.
 * The core calls the sandbox's admin surface; the renderer never sees its token.
 */
export function SandboxView() {
  return (
    <SandboxActionsProvider>
      <SandboxPanel />
    </SandboxActionsProvider>
  );
}

function SandboxPanel() {
  const [state, setState] = useState<SandboxState | null>(null);
  const { say } = useSandboxActions();
  useEffect(() => {
    void call('sandbox.state', {}).then((r) => {
      if (r.ok) setState(r.value);
      else say({ card: 'clock', tone: 'error', text: r.error.message });
    });
  }, [say]);
  return (
    <>
      <ViewHeader title="Sandbox" />
      <div className="content stack" {...SCROLL_REGION}>
        <p className="muted sandbox-intro">
          The local sandbox is a copy of the service on this computer. Move its clock, its money, its
          visitors, its storage and its knowledge API here to see what the app does when each happens for
          real.
        </p>
        <div className="sandbox-grid">
          <ClockCard state={state} setState={setState} />
          <WalletCard />
          <LeadsCard demoBot={state?.demoBot ?? null} />
          <FaultsCard state={state} setState={setState} />
          <KnowledgeCard state={state} setState={setState} />
          <RemoteDeleteCard />
          <ApiKeyCard />
        </div>
      </div>
    </>
  );
}

type StateProps = {
  state: SandboxState | null;
  setState(f: (s: SandboxState | null) => SandboxState | null): void;
};

function ClockCard({ state, setState }: StateProps) {
  return (
    <SandboxCard id="clock" icon="activity" title="Service clock" real={REAL.clock}>
      <p>
        Service time{' '}
        <strong className="num" data-testid="sandbox-time">
          {state ? formatIstTime(Date.parse(state.clock.now)) : '…'}
        </strong>
      </p>
      <div className="row">
        {SANDBOX_ADVANCE_DAYS.map((days) => (
          <ActionButton
            key={days}
            card="clock"
            id={`clock-${days}`}
            label={`+ ${dayLabel(days)}`}
            running="Moving…"
            run={() => call('sandbox.advanceClock', { days })}
            done={(s) => {
              setState(() => s);
              return `Moved ${dayLabel(days)}: the service’s time is now ${formatServiceTime(s.clock.ist)}. Every midnight on the way was billed.`;
            }}
          />
        ))}
      </div>
    </SandboxCard>
  );
}

function WalletCard() {
  const account = useAccount((s) => s.account?.value ?? null);
  return (
    <SandboxCard id="wallet" icon="wallet" title="Wallet" real={REAL.wallet}>
      <p className="num" data-testid="sandbox-wallet">
        {account ? (
          <>
            Holds <strong>{formatRupees(account.wallet.balance_paise)}</strong>
            {account.arrears.paise > 0 ? (
              <>
                {' '}
                · <strong className="error-text">{formatRupees(account.arrears.paise)}</strong> in arrears
              </>
            ) : null}
          </>
        ) : (
          '…'
        )}
      </p>
      <div className="row">
        {TOP_UPS.map((paise) => (
          <ActionButton
            key={paise}
            card="wallet"
            id={`top-${paise}`}
            label={`Top up ${formatRupees(paise).replace(/\.00$/, '')}`}
            run={() => call('sandbox.wallet', { topUpPaise: paise })}
            done={(w) =>
              `Topped up ${formatRupees(paise)}: the wallet holds ${formatRupees(w.balancePaise)}${
                w.arrearsPaise > 0 ? `, ${formatRupees(w.arrearsPaise)} still in arrears` : ''
              }.`
            }
          />
        ))}
        <ActionButton
          card="wallet"
          id="drain"
          tone="danger"
          label="Drain the wallet"
          run={() => call('sandbox.wallet', { drain: true })}
          done={(w) => drainedSentence(w.balancePaise, useAccount.getState().account?.value ?? null)}
        />
      </div>
    </SandboxCard>
  );
}

function LeadsCard({ demoBot }: { demoBot: boolean | null }) {
  const go = useUi((s) => s.go);
  return (
    <SandboxCard id="leads" icon="inbox" title="Leads" real={REAL.leads}>
      <div className="row">
        {(
          [
            ['LEAD-CAPTURED', 'Raise a lead'],
            ['HANDOFF-REQUESTED', 'Raise a handoff'],
          ] as const
        ).map(([event, label]) => (
          <ActionButton
            key={event}
            card="leads"
            id={event}
            label={label}
            disabled={demoBot === false}
            run={() => call('sandbox.raiseLead', { event })}
            done={(l) =>
              `${l.name} ${event === 'HANDOFF-REQUESTED' ? 'asked for a person' : 'left a lead'}: it arrives in Leads in a moment.`
            }
          />
        ))}
        <button type="button" className="btn ghost" onClick={() => go('leads')}>
          Open Leads
        </button>
      </div>
      {demoBot === false ? (
        <p className="small error-text">The demo bot is not set up yet; see Knowledge.</p>
      ) : null}
    </SandboxCard>
  );
}

function FaultsCard({ state, setState }: StateProps) {
  const { busy, act } = useSandboxActions();
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
    <SandboxCard id="faults" icon="alert" title="Faults: storage and rate limit" real={REAL.faults}>
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
      {/* The file API's own "slow down" (issue 34): Activity says the period once it is over. Short,
          since the app honours each Retry-After in full: a stop could not shorten what it waits. */}
      <div className="row">
        <ActionButton
          card="faults"
          id="files-429"
          label="Answer 429 for 10 seconds"
          disabled={!state}
          run={() => call('sandbox.faults', { rateLimitedSeconds: 10 })}
          done={() =>
            'The file API answers 429 for 10 seconds: the app waits as Retry-After says and sends again; Activity says when the service asked it to slow down once that is over.'
          }
        />
      </div>
    </SandboxCard>
  );
}

function KnowledgeCard({ state, setState }: StateProps) {
  const offline = state?.kb.offline ?? false;
  const limited = (state?.kb.rateLimitedUntil ?? 0) > Date.now();
  /** After a change of the API's state, the app's knowledge sync tries at once (not at its next round). */
  const nudge = () => void call('kb.syncNow', {});
  const kbSaid = (k: SandboxState['kb']) => {
    setState((s) => (s ? { ...s, kb: k } : s));
    nudge();
    if (k.offline)
      return 'The knowledge-entry API is offline: edits stay on this computer, marked as waiting, and are sent when it is back.';
    if (k.rateLimitedUntil)
      return `The knowledge-entry API answers 429 until ${formatIstTime(k.rateLimitedUntil)}: the app waits as Retry-After says, then sends.`;
    return 'The knowledge-entry API answers again: the app sends what waits.';
  };
  return (
    <SandboxCard id="kb" icon="book" title="Knowledge API" real={REAL.kb}>
      <p data-testid="sandbox-kb">
        {state ? (offline ? 'Offline' : limited ? 'Answering 429 (too many requests)' : 'Answering') : '…'}
      </p>
      <div className="row">
        <ActionButton
          card="kb"
          id="kb-offline"
          label={offline ? 'Bring it back' : 'Take it offline'}
          disabled={!state}
          run={() => call('sandbox.kbFaults', { offline: !offline })}
          done={kbSaid}
        />
        <ActionButton
          card="kb"
          id="kb-429"
          label={limited ? 'Stop the 429s' : 'Answer 429 for a minute'}
          disabled={!state}
          run={() => call('sandbox.kbFaults', { rateLimitedSeconds: limited ? 0 : 60 })}
          done={kbSaid}
        />
        <ActionButton
          card="kb"
          id="kb-change"
          label="Change an entry on the service"
          disabled={state?.demoBot === false}
          run={() => call('sandbox.changeEntry', {})}
          done={(r) => r.said}
        />
      </div>
    </SandboxCard>
  );
}

function RemoteDeleteCard() {
  return (
    <SandboxCard id="remote" icon="trash" title="A delete elsewhere" real={REAL.remote}>
      <div className="row">
        <ActionButton
          card="remote"
          id="remote-delete"
          tone="danger"
          label="Delete a synced file on the service"
          run={() => call('sandbox.deleteFile', {})}
          done={(r) => r.said}
        />
      </div>
    </SandboxCard>
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

/**
 * The sandbox's address and API key, to try the API by hand beside the app (issue 34: the key was
 * nowhere but a socket and the architecture page). Read from the core only when asked, shown and
 * copied here; never logged.
 */
function ApiKeyCard() {
  const [key, setKey] = useState<{ baseUrl: string; apiKey: string } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const curl = key ? `curl -H "Authorization: Bearer ${key.apiKey}" ${key.baseUrl}/me` : '';
  return (
    <SandboxCard id="api" icon="link" title="The API by hand" real={REAL.api}>
      {key ? (
        <dl className="sandbox-key small">
          <dt>Address</dt>
          <dd className="mono" data-testid="sandbox-base-url">
            {key.baseUrl}
          </dd>
          <dt>API key</dt>
          <dd className="mono" data-testid="sandbox-api-key">
            {key.apiKey}
          </dd>
          <dt>Try</dt>
          <dd className="mono">{curl}</dd>
        </dl>
      ) : null}
      <div className="row">
        {key ? (
          <>
            <button type="button" className="btn" onClick={() => void copyText('API key', key.apiKey)}>
              <Icon name="copy" /> Copy the key
            </button>
            <button type="button" className="btn ghost" onClick={() => void copyText('Command', curl)}>
              Copy the curl line
            </button>
            <button type="button" className="btn ghost" onClick={() => setKey(null)}>
              Hide
            </button>
          </>
        ) : (
          <button
            type="button"
            className="btn"
            onClick={() =>
              void call('sandbox.apiKey', {}).then((r) => {
                if (r.ok) {
                  setKey(r.value);
                  setError(null);
                } else setError(r.error.message);
              })
            }
          >
            Show the sandbox’s API key
          </button>
        )}
      </div>
      {error ? (
        <p className="small error-text" role="alert">
          {error}
        </p>
      ) : null}
    </SandboxCard>
  );
}

/**
 * What a drained wallet leads to. Rent is whole paise a day, rounded down, so a few MiB stored cost
 * ₹0.00 and moving the clock made no arrears while the card said it would (issue 34). Decided: say so,
 * and how much to store for a day to cost a paisa, rather than give the sandbox a price of its own.
 */
function drainedSentence(balancePaise: number, account: Account | null): string {
  const head = `Drained: the wallet holds ${formatRupees(balancePaise)}. New uploads wait for a top-up;`;
  if (!account || account.usage.daily_rent_paise > 0)
    return `${head} move the clock a day to fall into arrears (the rent is ${formatRupees(account?.usage.daily_rent_paise ?? 0)} a day).`;
  const price = account.pricing.per_gb_month_paise;
  const paisaADay = price > 0 ? Math.ceil((2 ** 30 * 30) / price) : null;
  return paisaADay === null
    ? `${head} storage is free here, so no day brings arrears.`
    : `${head} but what is stored (${formatBytes(account.usage.bytes_used)}) costs under a paisa a day and rent is charged in whole paise, so a day passes without arrears. Store ${formatBytes(paisaADay)} or more, then move the clock a day to fall into arrears.`;
}
