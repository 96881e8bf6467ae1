import { useEffect, useState } from 'react';
import {
  officeRefusedSentence,
  officeSentence,
  officeTrustSentence,
} from '../../../src-shared/domain/office-text';
import { call } from '../../api/core-ref';
import { usePendingCheck } from '../../components/use-pending-check';
import { orToast } from '../../stores/ui-store';
import { useOffice } from './office-store';

/**
 * Settings > Office: the desks seen at this address (name, version, share, backlog), this desk's place, the
 * switch to leave the office, its name, its key and the manual peer list. Changes apply at the next start.
 */
export function OfficeSettings() {
  const status = useOffice((s) => s.status);
  const settings = useOffice((s) => s.settings);
  const [name, setName] = useState('');
  const [peers, setPeers] = useState('');
  const [key, setKey] = useState('');
  const [code, setCode] = useState<{ code: string | null; fromEnv: boolean } | null>(null);
  useEffect(() => {
    void useOffice.getState().load();
  }, []);
  useEffect(() => {
    if (!settings) return;
    setName(settings.name);
    setPeers(settings.peers.join('\n'));
  }, [settings]);
  if (!settings) return null;
  const save = (patch: Parameters<typeof call<'office.update'>>[1]) =>
    orToast(call('office.update', patch)).then((r) => {
      if (r) useOffice.setState({ settings: r });
      return r;
    });
  return (
    <section className="card stack" data-testid="office-settings" aria-labelledby="office-settings-title">
      <h2 id="office-settings-title">Office</h2>
      <p className="small muted">
        Desks behind one internet address share the service's 120 requests a minute. They find each other on
        this network and agree on fair shares; messages carry no key, no file name and no account.
      </p>
      {status ? <p data-testid="office-sentence">{officeSentence(status)}.</p> : null}
      {status && officeTrustSentence(status) ? (
        <p data-testid="office-trust" className={status.keyed ? 'small' : 'small office-open'}>
          {officeTrustSentence(status)}.
        </p>
      ) : null}
      {status && officeRefusedSentence(status) ? (
        <p data-testid="office-refused" className="small">
          {officeRefusedSentence(status)}.
        </p>
      ) : null}
      {status && status.peers.length > 0 ? (
        <table className="small" data-testid="office-peers">
          <thead>
            <tr>
              <th scope="col">Desk</th>
              <th scope="col">Version</th>
              <th scope="col">Share a minute</th>
              <th scope="col">Waiting</th>
            </tr>
          </thead>
          <tbody>
            {status.peers.map((p) => (
              <tr key={p.id}>
                <td>
                  {p.name}
                  {p.self ? ' (this desk)' : ''}
                  {p.holder ? ' (holds the budget)' : ''}
                </td>
                <td>{p.version}</td>
                <td className="num">{Math.round(p.share)}</td>
                <td className="num">{p.backlog}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      <OfficeSwitch checked={settings.enabled} onChange={(enabled) => save({ enabled })} />
      <label className="stack">
        Office name (desks with the same name form one office; empty for every desk on this network)
        <input
          value={name}
          maxLength={64}
          onChange={(e) => setName(e.target.value)}
          onBlur={() => void save({ name })}
        />
      </label>
      <label className="stack">
        Desks multicast does not reach, one host:port a line
        <textarea
          rows={3}
          value={peers}
          onChange={(e) => setPeers(e.target.value)}
          onBlur={() =>
            void save({
              peers: peers
                .split('\n')
                .map((p) => p.trim())
                .filter(Boolean),
            })
          }
        />
      </label>
      {status?.port ? <p className="small muted">This desk listens on UDP port {status.port}.</p> : null}
      <p className="small muted">
        A join code closes the office: only desks given it take part, and whatever anyone else sends is
        refused and counted. Give it to every desk of the office (here, or "assets-sync office-key set").
      </p>
      {code?.code ? (
        <p data-testid="office-join-code">
          Join code{code.fromEnv ? ' (from ASSETS_OFFICE_KEY)' : ''}: <code>{code.code}</code>
        </p>
      ) : null}
      <div className="row">
        {settings.hasKey ? (
          <button
            type="button"
            className="btn"
            onClick={() => void orToast(call('office.joinCode', {})).then((r) => r && setCode(r))}
          >
            Show the join code
          </button>
        ) : null}
        <button
          type="button"
          className="btn"
          onClick={() =>
            void orToast(call('office.joinCode', { make: true })).then((r) => {
              if (!r) return;
              setCode(r);
              void useOffice.getState().load();
            })
          }
        >
          Make a new join code
        </button>
      </div>
      <label className="stack">
        Join code given by another desk {settings.hasKey ? '(one is set; a new one replaces it)' : ''}
        <input type="password" value={key} autoComplete="off" onChange={(e) => setKey(e.target.value)} />
      </label>
      <div className="row">
        <button
          type="button"
          className="btn"
          disabled={key === ''}
          onClick={() => void save({ key }).then(() => setKey(''))}
        >
          Save the join code
        </button>
        {settings.hasKey ? (
          <button
            type="button"
            className="btn"
            onClick={() => void save({ key: '' }).then(() => setCode(null))}
          >
            Clear the join code (open office)
          </button>
        ) : null}
      </div>
      <p className="small muted">A new or changed join code applies at the next start.</p>
    </section>
  );
}

function OfficeSwitch({ checked, onChange }: { checked: boolean; onChange(next: boolean): unknown }) {
  const [shown, change] = usePendingCheck(checked, onChange);
  return (
    <label className="row">
      <input
        type="checkbox"
        checked={shown}
        onChange={(e) => change(e.target.checked)}
        data-testid="office-enabled"
      />
      Share this address with other desks (off: this desk plans alone; applies at the next start)
    </label>
  );
}
