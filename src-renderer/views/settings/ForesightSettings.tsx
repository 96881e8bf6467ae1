import type { Settings } from '../../../src-shared/contract';
import { CheckField, LabelledInput } from '../../components/Field';
import type { SaveSettings, SettingsErrors } from './use-settings-save';

/** Runway alerts' lead time and content dedupe (issue 12). */
export function ForesightSettings({
  settings,
  save,
  errors,
}: {
  settings: Settings;
  save: SaveSettings;
  errors: SettingsErrors;
}) {
  return (
    <section className="card stack" aria-labelledby="settings-wallet">
      <h2 id="settings-wallet">Wallet and storage</h2>
      <LabelledInput
        label="Warn this many days before uploads would stop"
        hint="At today's rent; warned again at 1 day, and when rent goes unpaid."
        type="number"
        min={1}
        max={90}
        key={`d${settings.runwayAlertDays}`}
        defaultValue={settings.runwayAlertDays}
        error={errors.runwayAlertDays}
        onChange={(e) => void save({ runwayAlertDays: Number(e.target.value) })}
      />
      <CheckField
        checked={settings.contentDedupe}
        onChange={(v) => save({ contentDedupe: v })}
        hint="A file whose bytes are already online in the same bucket under another name is linked to that copy instead of uploaded: no request, no extra rent."
      >
        Content dedupe
      </CheckField>
    </section>
  );
}
