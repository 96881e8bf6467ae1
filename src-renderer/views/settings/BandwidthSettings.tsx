import { useEffect, useRef, useState } from 'react';
import type { Settings } from '../../../src-shared/contract';
import {
  limitedFasterThanNormal,
  limitText,
  parseLimit,
  parseWeekSchedule,
  weekScheduleText,
} from '../../../src-shared/domain/bwlimit';
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
  const rateField = (key: RateKey, label: string) => (
    <RateField name={key} label={label} value={settings[key]} error={errors[key]} save={save} />
  );
  const schedule = parseWeekSchedule(settings.bwSchedule);
  const faster = limitedFasterThanNormal(settings.bwlimit, settings.bwScheduleLimit);
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
      {faster ? (
        <p className="small warn-text" role="alert" data-testid="bw-limited-faster">
          The limited hours' limit ({rateWords(settings.bwScheduleLimit)}) is faster than the upload limit of
          the normal hours ({rateWords(settings.bwlimit)}): the limited hours would upload more, not less. Is
          that meant? Lower it, or raise the upload limit.
        </p>
      ) : null}
      <WeekGrid settings={settings} save={save} />
      {errors.bwSchedule ? (
        <span className="error-text small" role="alert">
          {errors.bwSchedule}
        </span>
      ) : null}
      <p className="small" data-testid="bw-in-force-settings" aria-live="polite">
        {inForce ? `Now: ${inForce.text}.` : null}
      </p>
      {/* The schedule in words; its own text (as in the settings file) is the tooltip (issue 34). */}
      <p className="muted small" data-testid="bw-schedule-text" title={settings.bwSchedule || undefined}>
        {schedule.ok ? weekScheduleText(schedule.value) : settings.bwSchedule}
      </p>
    </section>
  );
}

type RateKey = 'bwlimit' | 'bwPresetHalf' | 'bwPresetLow' | 'bwScheduleLimit';

/** "2 MiB/s", "Unlimited"; the text as written when it does not parse. */
function rateWords(text: string): string {
  const l = parseLimit(text);
  if (!l.ok) return text;
  return l.value.kind === 'rate' ? limitText(l.value) : limitText(l.value).toLowerCase();
}

/**
 * A limit's field: saved on Enter or on leaving it (issue 34: Enter did nothing), and says "Saved" once
 * the core took it. It keeps its element across a save (a key per value remounted it, and focus fell
 * to the page's start); a change from elsewhere (the tray) is written in unless the field is being typed in.
 */
function RateField(props: {
  name: RateKey;
  label: string;
  value: string;
  error: string | undefined;
  save: SaveSettings;
}) {
  const { name, value, save } = props;
  const input = useRef<HTMLInputElement>(null);
  const [saved, setSaved] = useState(false);
  useEffect(() => {
    if (input.current && document.activeElement !== input.current) input.current.value = value;
  }, [value]);
  const commit = async (text: string) => {
    if (text === value) return;
    setSaved(false);
    if (await save({ [name]: text })) setSaved(true);
  };
  return (
    <div className="stack" style={{ gap: '0.2rem' }}>
      <LabelledInput
        ref={input}
        label={props.label}
        defaultValue={value}
        error={props.error}
        onChange={() => setSaved(false)}
        onKeyDown={(e) => {
          if (e.key === 'Enter') {
            e.preventDefault();
            void commit(e.currentTarget.value);
          }
        }}
        onBlur={(e) => void commit(e.target.value)}
      />
      <span className="small ok-text" role="status" data-testid={`saved-${name}`}>
        {saved ? 'Saved' : ''}
      </span>
    </div>
  );
}
