import type { Settings } from '../../../src-shared/contract';

/** Runway alerts' lead time and content dedupe (issue 12). */
export function ForesightSettings({
  settings,
  save,
}: {
  settings: Settings;
  save(patch: Partial<Settings>): void;
}) {
  return (
    <section className="card stack">
      <h2>Wallet and storage</h2>
      <label className="field">
        Warn when uploads would stop within this many days at today's rent (again at 1 day, and when rent goes
        unpaid)
        <input
          type="number"
          min={1}
          max={90}
          value={settings.runwayAlertDays}
          onChange={(e) => save({ runwayAlertDays: Number(e.target.value) })}
        />
      </label>
      <label className="row">
        <input
          type="checkbox"
          checked={settings.contentDedupe}
          onChange={(e) => save({ contentDedupe: e.target.checked })}
        />
        Content dedupe: a file whose bytes are already online in the same bucket under another name is linked
        to that copy instead of uploaded (no request, no extra rent)
      </label>
    </section>
  );
}
