import type { Settings } from '../../../src-shared/contract';
import { utcOffsetText } from '../../../src-shared/domain/ist-time';
import { LabelledInput } from '../../components/Field';
import { useSync } from '../../stores/sync-store';
import type { SaveSettings, SettingsErrors } from './use-settings-save';
import { WeekGrid } from './WeekGrid';

/**
 * Settings > Bandwidth (issue 23): the upload limit, the tray's presets, and apart from them the weekly
 * schedule, which only says which hours are normal (the upload limit), limited (its own limit) or
 * paused, on the clock the person chooses.
 */
export function BandwidthSettings({
  settings,
  save,
  errors,
}: {
  settings: Settings;
  save: SaveSettings;
  errors: SettingsErrors;
}) {
  const inForce = useSync((s) => s.overview?.bandwidth ?? null);
  const localZone =
    useSync((s) => s.overview?.bandwidth?.localZone) ?? utcOffsetText(-new Date().getTimezoneOffset());
  const rateField = (key: 'bwlimit' | 'bwPresetHalf' | 'bwPresetLow' | 'bwScheduleLimit', label: string) => (
    <LabelledInput
      label={label}
      key={`${key}:${settings[key]}`}
      defaultValue={settings[key]}
      error={errors[key]}
      onBlur={(e) => e.target.value !== settings[key] && void save({ [key]: e.target.value })}
    />
  );
  return (
    <section className="card stack" aria-labelledby="bw-title">
      <h2 id="bw-title">Bandwidth</h2>
      {rateField('bwlimit', 'Upload limit')}
      <p className="small muted field-note">
        Write 512k or 2M (KiB/s, MiB/s), or off for no limit. With a schedule, it is the limit of the normal
        hours.
      </p>
      <div className="row form-row">
        {rateField('bwPresetHalf', 'Tray preset “half”')}
        {rateField('bwPresetLow', 'Tray preset “low”')}
      </div>
      <h3 id="bw-schedule-title">Weekly schedule</h3>
      <div className="row form-row">
        {rateField('bwScheduleLimit', 'Limit in the limited hours')}
        <label className="field">
          Hours are
          <select
            value={settings.bwScheduleZone}
            onChange={(e) => void save({ bwScheduleZone: e.target.value as Settings['bwScheduleZone'] })}
          >
            <option value="local">this computer's time ({localZone})</option>
            <option value="ist">India Standard Time (IST, UTC+05:30)</option>
          </select>
        </label>
      </div>
      <WeekGrid settings={settings} save={save} />
      {errors.bwSchedule ? (
        <span className="error-text small" role="alert">
          {errors.bwSchedule}
        </span>
      ) : null}
      <p className="small" data-testid="bw-in-force-settings" aria-live="polite">
        {inForce ? `Now: ${inForce.text}.` : null}
      </p>
      <p className="muted small mono" data-testid="bw-schedule-text">
        {settings.bwSchedule || 'No schedule: the upload limit applies at all hours.'}
      </p>
    </section>
  );
}
