import { readFileSync } from 'node:fs';

/** A memory figure of a live process from /proc/<pid>/status, in MiB (VmHWM: peak RSS; VmRSS: now). */
export function procStatusMb(pid: number, field: 'VmHWM' | 'VmRSS'): number {
  try {
    const m = new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : Number.NaN;
  } catch {
    return Number.NaN;
  }
}
