import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';

/**
 * CPU time, to show when a figure is a race for the machine's cores rather than a matter of waiting:
 * a run cannot take less wall time than the CPU it and the server spent, spread over every core.
 */

let ticksPerSecond: number | null = null;
const clockTicks = (): number => {
  if (ticksPerSecond === null) {
    try {
      ticksPerSecond = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
    } catch {
      ticksPerSecond = 100;
    }
  }
  return ticksPerSecond;
};

/** CPU (ms, user + system, every thread) a live process has used so far: /proc/PID/stat. */
export function processCpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // Fields after the command's closing parenthesis (the command may hold spaces): utime is 14th, stime 15th.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / clockTicks();
}

/**
 * Bash's `times` after a command: the second line is the user and system time of the shell's ended
 * children ("0m0.040s 0m0.110s"). Returns their sum in ms.
 */
export function childrenCpuMs(timesOutput: string): number {
  const line = timesOutput.trim().split('\n').at(-1) ?? '';
  const parts = [...line.matchAll(/(\d+)m([\d.]+)s/g)];
  if (parts.length !== 2) throw new Error(`bash's times printed "${line}", not two times`);
  return parts.reduce((ms, m) => ms + (Number(m[1]) * 60 + Number(m[2])) * 1000, 0);
}

/** The cores the runs share: the least wall time `cpuMs` of work can take. */
export const cores = () => availableParallelism();
export const cpuFloorMs = (cpuMs: number) => cpuMs / cores();
