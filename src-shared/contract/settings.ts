import { z } from 'zod';
import { parseLimit, parseWeekSchedule } from '../domain/bwlimit';
import { FILE_API_BUDGET_DEFAULT_PER_MINUTE, FILE_API_BUDGET_MAX_PER_MINUTE } from '../domain/limits';
import { RUNWAY_ALERT_DAYS_DEFAULT } from '../domain/runway-alerts';

const rateText = z.string().superRefine((t, c) => {
  const r = parseLimit(t);
  if (!r.ok) c.addIssue({ code: 'custom', message: r.error.message });
});
const scheduleText = z.string().superRefine((t, c) => {
  const r = parseWeekSchedule(t);
  if (!r.ok) c.addIssue({ code: 'custom', message: r.error.message });
});
/** A whole number in a range, refused in words a person reads beside the field. */
const wholeNumber = (min: number, max: number, what: string) =>
  z
    .number({ error: `Write ${what} as a number.` })
    .int({ error: `Write ${what} as a whole number.` })
    .min(min, { error: `Write ${what} from ${min} to ${max}.` })
    .max(max, { error: `Write ${what} from ${min} to ${max}.` });

import { command, Done, Empty } from './define';

export const SettingsSchema = z.object({
  /** Uploads in flight at once. */
  concurrency: wholeNumber(1, 16, 'the uploads at once'),
  /** The request budget's rate, kept under the service's limit. */
  requestsPerMinute: wholeNumber(1, FILE_API_BUDGET_MAX_PER_MINUTE, 'the requests a minute'),
  startAtLogin: z.boolean(),
  theme: z.enum(['system', 'light', 'dark']),
  notifications: z.boolean(),
  /** Warn when the wallet falls under the upload floor within this many days at today's rent. */
  runwayAlertDays: wholeNumber(1, 90, 'the days'),
  /** Link a file already live in the bucket under another name (same md5 + size) instead of sending it. */
  contentDedupe: z.boolean(),
  /** Upload limit, rclone's spelling (512k, 2M, off): every hour, or the schedule's normal hours. */
  bwlimit: rateText,
  /**
   * Weekly schedule: which hours are normal (the upload limit), limited (`bwScheduleLimit`) or paused,
   * never a rate ("Mon-09:00,limited Mon-17:00,normal"); '' for none (domain/bwlimit.ts).
   */
  bwSchedule: scheduleText,
  /** The limit of the schedule's limited hours. */
  bwScheduleLimit: rateText,
  /** The clock the schedule's days and hours are read on: this computer's zone, or IST. */
  bwScheduleZone: z.enum(['local', 'ist']),
  /** The tray's presets: "half" and "low" (unlimited is always "off"). */
  bwPresetHalf: rateText,
  bwPresetLow: rateText,
  /** Pause all (the main view and the tray): survives a restart. */
  pausedAll: z.boolean(),
});
export type Settings = z.infer<typeof SettingsSchema>;

export const DEFAULT_SETTINGS: Settings = {
  concurrency: 4,
  requestsPerMinute: FILE_API_BUDGET_DEFAULT_PER_MINUTE,
  startAtLogin: false,
  theme: 'system',
  notifications: true,
  runwayAlertDays: RUNWAY_ALERT_DAYS_DEFAULT,
  contentDedupe: false,
  bwlimit: 'off',
  bwSchedule: '',
  bwScheduleLimit: '512k',
  bwScheduleZone: 'local',
  bwPresetHalf: '1M',
  bwPresetLow: '256k',
  pausedAll: false,
};

export const settingsCommands = {
  'settings.get': command(Empty, SettingsSchema),
  'settings.update': command(SettingsSchema.partial().strict(), SettingsSchema),
  /** Stops the embedded server, deletes its data and starts it fresh with a new demo account. */
  'settings.resetSandbox': command(Empty, Done),
} as const;

export const settingsEvents = {
  'settings.changed': SettingsSchema,
} as const;
