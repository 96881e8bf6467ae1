import { useState } from 'react';
import type { Settings } from '../../../src-shared/contract';
import { call } from '../../api/core-ref';
import { fieldMessage } from '../../components/Field';
import { useUi } from '../../stores/ui-store';

export type SettingsErrors = Partial<Record<keyof Settings, string>>;
export type SaveSettings = (patch: Partial<Settings>) => Promise<boolean>;

/**
 * Saves a settings change; a refusal of one field is kept for that field, to be said beside it in
 * words (the contract's key stripped), and cleared by its next accepted change. Any other refusal is a
 * toast.
 */
export function useSettingsSave(): { save: SaveSettings; errors: SettingsErrors } {
  const [errors, setErrors] = useState<SettingsErrors>({});
  const save: SaveSettings = async (patch) => {
    const r = await call('settings.update', patch);
    if (r.ok) {
      useUi.setState({ settings: r.value });
      setErrors((e) => {
        const next = { ...e };
        for (const k of Object.keys(patch)) delete next[k as keyof Settings];
        return next;
      });
      return true;
    }
    const field = r.error.field as keyof Settings | undefined;
    if (field && field in patch) setErrors((e) => ({ ...e, [field]: fieldMessage(r.error) }));
    else useUi.getState().toast('error', fieldMessage(r.error));
    return false;
  };
  return { save, errors };
}
