import { FILE_API_BUDGET_DEFAULT_PER_MINUTE } from '../../../../src-shared/domain/limits';

/** The limits a sync runs under. Bandwidth and schedule are null when none is set (or known). */
export interface SyncLimits {
  requestsPerMinute: number;
  /** Upload bytes per second; null: unlimited. */
  bandwidthBytesPerSecond: number | null;
  /** A description of the schedule in force, or null when none is set. */
  schedule: string | null;
}

export interface PlanTiming {
  requests: number;
  /** Seconds the request budget needs for them (a sliding minute: the first minute's allowance goes at once). */
  requestSeconds: number;
  /** Seconds the bandwidth limit needs for the bytes; null: unlimited (the network decides). */
  byteSeconds: number | null;
  seconds: number;
  boundBy: 'requests' | 'bytes';
  limits: SyncLimits;
  /** What was assumed for limits that are not set, in words. */
  assumed: string[];
}

export const DEFAULT_LIMITS: SyncLimits = {
  requestsPerMinute: FILE_API_BUDGET_DEFAULT_PER_MINUTE,
  bandwidthBytesPerSecond: null,
  schedule: null,
};

export function timingOf(requests: number, bytes: number, limits: SyncLimits): PlanTiming {
  const perMinute = Math.max(1, limits.requestsPerMinute);
  const requestSeconds = requests <= perMinute ? 0 : Math.ceil(((requests - perMinute) / perMinute) * 60);
  const byteSeconds =
    limits.bandwidthBytesPerSecond && limits.bandwidthBytesPerSecond > 0
      ? Math.ceil(bytes / limits.bandwidthBytesPerSecond)
      : null;
  const assumed: string[] = [];
  if (limits.bandwidthBytesPerSecond === null) assumed.push('no bandwidth limit (the network decides)');
  if (limits.schedule === null) assumed.push('no schedule: sync runs at any hour');
  const seconds = Math.max(requestSeconds, byteSeconds ?? 0);
  return {
    requests,
    requestSeconds,
    byteSeconds,
    seconds,
    boundBy: byteSeconds !== null && byteSeconds > requestSeconds ? 'bytes' : 'requests',
    limits,
    assumed,
  };
}
