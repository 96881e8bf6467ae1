import { describe, expect, it } from 'vitest';
import { childrenCpuMs, processCpuMs } from '../../tools/bench/shared/cpu';

describe("the benchmarks' CPU accounting", () => {
  it("reads bash's times line of its ended children", () => {
    expect(childrenCpuMs('201\n0m0.002s 0m0.001s\n0m0.040s 0m0.110s\n')).toBeCloseTo(150, 6);
    expect(childrenCpuMs('0m0.000s 0m0.000s\n1m2.500s 0m0.500s')).toBeCloseTo(63_000, 6);
    expect(() => childrenCpuMs('201')).toThrow(/times printed/);
  });

  it("counts this process's CPU as it burns it", () => {
    const before = processCpuMs(process.pid);
    const until = process.cpuUsage().user + 200_000;
    while (process.cpuUsage().user < until) {
      // spin: 200 ms of user time
    }
    expect(processCpuMs(process.pid) - before).toBeGreaterThanOrEqual(150);
  });
});
