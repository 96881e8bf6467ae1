import { z } from 'zod';
import { parseLimit, parseSchedule } from '../domain/bwlimit';
import { FILE_API_BUDGET_DEFAULT_PER_MINUTE, FILE_API_BUDGET_MAX_PER_MINUTE } from '../domain/limits';
import { RUNWAY_ALERT_DAYS_DEFAULT } from '../domain/runway-alerts';

const rateText = z.string().superRefine((t, c) => {
  const r = parseLimit(t);
  if (!r.ok) c.addIssue({ code: 'custom', message: r.error.message });
});
const scheduleText = z.string().superRefine((t, c) => {
  if (t.trim() === '') return;
  const r = parseSchedule(t);
  if (!r.ok) c.addIssue({ code: 'custom', message: r.error.message });
});

import { command, Done, Empty } from './define';

export const SettingsSchema = z.object({
  /** Uploads in flight at once. */
  concurrency: z.number().int().min(1).max(16),
  /** The request budget's rate, kept under the service's limit. */
  requestsPerMinute: z.number().int().min(1).max(FILE_API_BUDGET_MAX_PER_MINUTE),
  startAtLogin: z.boolean(),
  theme: z.enum(['system', 'light', 'dark']),
  notifications: z.boolean(),
  /** Warn when the wallet falls under the upload floor within this many days at today's rent. */
  runwayAlertDays: z.number().int().min(1).max(90),
  /** Link a file already live in the bucket under another name (same md5 + size) instead of sending it. */
  contentDedupe: z.boolean(),
  /** Upload limit, rclone's spelling (512k, 2M, off); the weekly schedule, when set, decides instead. */
  bwlimit: rateText,
  /** Weekly timetable, rclone's text form ("Mon-08:00,512k Mon-19:00,off"); '' for none. */
  bwSchedule: scheduleText,
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
