import type { Settings, SyncOverview } from '../../../src-shared/contract';
import {
  DAYS,
  type Limit,
  limitText,
  parseLimit,
  parseWeekSchedule,
  resolveWeek,
  type ScheduleZone,
} from '../../../src-shared/domain/bwlimit';
import { istWallClock, localWallClock, utcOffsetText } from '../../../src-shared/domain/ist-time';
import type { Db } from '../../shared-node/sqlite';
import type { BandwidthSetting, InForce } from '../sync/engine/schedule';
import { createSettingsStore } from './settings-store';

/** The engine's upload limit from the saved settings (both texts were checked when saved). */
export function bandwidthOf(s: Settings): BandwidthSetting {
  const limit = parseLimit(s.bwlimit);
  const limited = parseLimit(s.bwScheduleLimit);
  const week = parseWeekSchedule(s.bwSchedule);
  const normal: Limit = limit.ok ? limit.value : { kind: 'off' };
  // The kinds of hour take the limits in force now: a change of either limit reaches every such hour.
  return {
    limit: normal,
    schedule: week.ok ? resolveWeek(week.value, normal, limited.ok ? limited.value : normal) : [],
    zone: s.bwScheduleZone,
  };
}

/** The limit saved in the app's settings (Settings > Bandwidth, the tray), read from its database. */
export function savedBandwidth(db: Db): BandwidthSetting {
  return bandwidthOf(createSettingsStore(db).get());
}

/**
 * "Limited to 512 KiB/s until 19:00", "Paused by the schedule until Mon 08:00", "Unlimited". The
 * schedule's change is said on its own clock, and on the other one too when they differ: "until 07:00
 * IST (01:30 on this computer)", "until 01:30 (07:00 IST)".
 */
export function inForceText(f: InForce, now: number): string {
  const until = f.until === null ? '' : ` until ${untilText(f.until, now, f.zone ?? 'local')}`;
  if (f.limit.kind === 'pause') return `Paused by the schedule${until}`;
  if (f.limit.kind === 'off') return `Unlimited${until}`;
  return `Limited to ${limitText(f.limit)}${until}`;
}

/** A limit's end for people: "19:00" today, "Mon 08:00" on another day (on `zone`'s clock; local by default). */
export function whenText(at: number, now: number, zone: ScheduleZone = 'local'): string {
  const read = zone === 'ist' ? istWallClock : localWallClock;
  const a = read(at);
  const n = read(now);
  const hm = `${String(a.hour).padStart(2, '0')}:${String(a.minute).padStart(2, '0')}`;
  const sameDay = a.year === n.year && a.month === n.month && a.date === n.date;
  return sameDay ? hm : `${DAYS[a.day]} ${hm}`;
}

/** The machine's zone differs from IST at `at`. */
function localIsNotIst(at: number): boolean {
  return localWallClock(at).utcOffsetMinutes !== 330;
}

function untilText(at: number, now: number, zone: ScheduleZone): string {
  if (!localIsNotIst(at)) return `${whenText(at, now, 'ist')} IST`;
  return zone === 'ist'
    ? `${whenText(at, now, 'ist')} IST (${whenText(at, now, 'local')} on this computer)`
    : `${whenText(at, now, 'local')} on this computer (${whenText(at, now, 'ist')} IST)`;
}

export function overviewBandwidth(f: InForce, now: number): NonNullable<SyncOverview['bandwidth']> {
  const l: Limit = f.limit;
  return {
    kind: l.kind,
    bytesPerSecond: l.kind === 'rate' ? l.bytesPerSecond : null,
    until: f.until,
    source: f.source,
    text: inForceText(f, now),
    localZone: utcOffsetText(localWallClock(now).utcOffsetMinutes),
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
