import { useState } from 'react';
import type { Settings } from '../../../src-shared/contract';
import {
  FILE_API_BUDGET_MAX_PER_MINUTE,
  FILE_API_REQUESTS_PER_MINUTE,
} from '../../../src-shared/domain/limits';
import { call } from '../../api/core-ref';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { CheckField, LabelledInput } from '../../components/Field';
import { SCROLL_REGION, ViewHeader } from '../../components/ViewHeader';
import { orToast, useUi } from '../../stores/ui-store';
import { OfficeSettings } from '../office/OfficeSettings';
import { BandwidthSettings } from './BandwidthSettings';
import { ForesightSettings } from './ForesightSettings';
import { SecretStoreSettings } from './SecretStoreSettings';
import { useSettingsSave } from './use-settings-save';

export function SettingsView() {
  const settings = useUi((s) => s.settings);
  const session = useUi((s) => s.session);
  const [confirm, setConfirm] = useState<'reset' | 'disconnect' | null>(null);
  const { save, errors } = useSettingsSave();
  if (!settings) return null;
  return (
    <>
      <ViewHeader title="Settings" />
      <div className="content" {...SCROLL_REGION}>
        <div className="stack form-column">
          <section className="card stack" aria-labelledby="settings-uploads">
            <h2 id="settings-uploads">Uploads</h2>
            <LabelledInput
              label="Uploads at once"
              type="number"
              min={1}
              max={16}
              key={`c${settings.concurrency}`}
              defaultValue={settings.concurrency}
              error={errors.concurrency}
              onChange={(e) => void save({ concurrency: Number(e.target.value) })}
            />
            <LabelledInput
              label="Request budget (requests a minute)"
              hint={`The service allows ${FILE_API_REQUESTS_PER_MINUTE} a minute; the app keeps a margin.`}
              type="number"
              min={1}
              max={FILE_API_BUDGET_MAX_PER_MINUTE}
              key={`r${settings.requestsPerMinute}`}
              defaultValue={settings.requestsPerMinute}
              error={errors.requestsPerMinute}
              onChange={(e) => void save({ requestsPerMinute: Number(e.target.value) })}
            />
          </section>
          <ForesightSettings settings={settings} save={save} errors={errors} />
          <SecretStoreSettings />
          <section className="card stack" aria-labelledby="settings-app">
            <h2 id="settings-app">App</h2>
            <CheckField checked={settings.startAtLogin} onChange={(v) => save({ startAtLogin: v })}>
              Start at login (desktop app)
            </CheckField>
            <CheckField checked={settings.notifications} onChange={(v) => save({ notifications: v })}>
              Desktop notifications
            </CheckField>
            <label className="field">
              Theme
              <select
                value={settings.theme}
                onChange={(e) => save({ theme: e.target.value as Settings['theme'] })}
              >
                <option value="system">Follow the system</option>
                <option value="light">Light</option>
                <option value="dark">Dark</option>
              </select>
            </label>
          </section>
          <BandwidthSettings settings={settings} save={save} errors={errors} />
          <OfficeSettings />
          <section className="card stack" aria-labelledby="settings-service">
            <h2 id="settings-service">Service</h2>
            <p className="muted small">
              {session?.kind === 'sandbox' ? 'The local sandbox' : 'Account'} at{' '}
              <span className="mono">{session?.baseUrl}</span>
              {session?.keySource === 'env' ? ' (key from ASSETS_API_KEY)' : ''}
            </p>
            <div className="row">
              {session?.kind === 'sandbox' ? (
                <button type="button" className="btn danger" onClick={() => setConfirm('reset')}>
                  Reset the sandbox
                </button>
              ) : null}
              <button type="button" className="btn" onClick={() => setConfirm('disconnect')}>
                {session?.kind === 'sandbox' ? 'Leave the sandbox' : 'Disconnect this account'}
              </button>
            </div>
          </section>
        </div>
      </div>
      <ConfirmDialog
        open={confirm === 'reset'}
        title="Reset the sandbox?"
        confirmLabel="Reset"
        danger
        onCancel={() => setConfirm(null)}
        onConfirm={async () => {
          setConfirm(null);
          if (await orToast(call('settings.resetSandbox', {})))
            useUi.getState().toast('info', 'The sandbox starts afresh.');
        }}
      >
        Every file, wallet movement and usage day of the sandbox is deleted and a new demo account is made.
        Your folders and the files on this computer stay.
      </ConfirmDialog>
      <ConfirmDialog
        open={confirm === 'disconnect'}
        title="Disconnect?"
        confirmLabel="Disconnect"
        onCancel={() => setConfirm(null)}
        onConfirm={async () => {
          setConfirm(null);
          const s = await orToast(call('session.disconnect', {}));
          if (s) useUi.setState({ session: s });
        }}
      >
        Uploads stop and the key is removed from the keychain. Folders stay configured.
      </ConfirmDialog>
    </>
  );
}
