import type { Settings, SyncOverview } from '../../../src-shared/contract';
import { DAYS, type Limit, limitText, parseLimit, parseSchedule } from '../../../src-shared/domain/bwlimit';
import type { Db } from '../../shared-node/sqlite';
import type { BandwidthSetting, InForce } from '../sync/engine/schedule';
import { createSettingsStore } from './settings-store';

/** The engine's upload limit from the saved settings (both texts were checked when saved). */
export function bandwidthOf(s: Settings): BandwidthSetting {
  const limit = parseLimit(s.bwlimit);
  const schedule = s.bwSchedule.trim() ? parseSchedule(s.bwSchedule) : null;
  return {
    limit: limit.ok ? limit.value : { kind: 'off' },
    schedule: schedule?.ok ? schedule.value : [],
  };
}

/** The limit saved in the app's settings (Settings > Bandwidth, the tray), read from its database. */
export function savedBandwidth(db: Db): BandwidthSetting {
  return bandwidthOf(createSettingsStore(db).get());
}

/** "Limited to 512 KiB/s until 19:00", "Paused by the schedule until Mon 08:00", "Unlimited". */
export function inForceText(f: InForce, now: number): string {
  const until = f.until === null ? '' : ` until ${whenText(f.until, now)}`;
  if (f.limit.kind === 'pause') return `Paused by the schedule${until}`;
  if (f.limit.kind === 'off') return `Unlimited${until}`;
  return `Limited to ${limitText(f.limit)}${until}`;
}

/** A limit's end for people: "19:00" today, "Mon 08:00" on another day (local time). */
export function whenText(at: number, now: number): string {
  const d = new Date(at);
  const hm = `${String(d.getHours()).padStart(2, '0')}:${String(d.getMinutes()).padStart(2, '0')}`;
  if (new Date(now).toDateString() === d.toDateString()) return hm;
  return `${DAYS[d.getDay()]} ${hm}`;
}

export function overviewBandwidth(f: InForce, now: number): NonNullable<SyncOverview['bandwidth']> {
  const l: Limit = f.limit;
  return {
    kind: l.kind,
    bytesPerSecond: l.kind === 'rate' ? l.bytesPerSecond : null,
    until: f.until,
    source: f.source,
    text: inForceText(f, now),
  };
}

/** The tray's three presets (the user sets half and low in Settings), and which one is on. */
export function trayPresets(
  s: Settings,
): { id: 'unlimited' | 'half' | 'low'; label: string; bwlimit: string; checked: boolean }[] {
  const label = (t: string) => {
    const l = parseLimit(t);
    return l.ok ? limitText(l.value) : t;
  };
  return [
    { id: 'unlimited', label: 'Unlimited', bwlimit: 'off', checked: s.bwlimit === 'off' },
    {
      id: 'half',
      label: `Half (${label(s.bwPresetHalf)})`,
      bwlimit: s.bwPresetHalf,
      checked: s.bwlimit === s.bwPresetHalf,
    },
    {
      id: 'low',
      label: `Low (${label(s.bwPresetLow)})`,
      bwlimit: s.bwPresetLow,
      checked: s.bwlimit === s.bwPresetLow,
    },
  ];
}
