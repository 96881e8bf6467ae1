import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import {
  compareWithRecorded,
  keyNumber,
  moveText,
  parseRecorded,
  printReport,
  recordMarkdown,
} from '../../tools/bench/shared/recorded';
import type { Row } from '../../tools/bench/shared/table';

// A figure that moved more than 25% from the table last recorded in docs/benchmarks.md, either way,
// is printed with a mark: bench:sync, bench:remote, bench:server, bench:webhooks, soak (and any
// benchmark that prints through printReport).

const row = (figure: string, measured: string, ratio: string): Row => ({
  figure,
  measured,
  baseline: '-',
  ratio,
  target: '-',
  pass: true,
});

const RECORDED = `# Benchmarks

Older record, kept for history:

<!-- recorded bench:sync: 2024-12-01, quiet -->
| figure | measured | baseline | ratio | target | result | load |
|---|---|---|---|---|---|---|
| 200 MB upload: engine time (hash + upload) | 0.90 s | curl -F 0.80 s | 1.12x curl's time | <= 1.15x | PASS | 0.10 |
<!-- end recorded -->

<!-- recorded bench:sync: 2025-01-31, quiet machine -->
| figure | measured | baseline | ratio | target | result | load |
|---|---|---|---|---|---|---|
| 200 MB upload: engine time (hash + upload) | 0.49 s (1 upload) | curl -F 0.79 s | 0.61x curl's time | <= 1.15x | PASS | 0.12 |
| 200 MB upload: engine peak RSS (VmHWM) | 159 MB | - | - | < 200 MB | PASS | 0.12 |
| 240 files at 120/min: 429 answers | 0 | - | - | 0 | PASS | 0.12 |
| a figure with a \\| in it | 2,000 requests | - | - | - | PASS | 0.12 |
<!-- end recorded -->

<!-- recorded bench:remote: 2025-01-31 -->
| figure | measured | baseline | ratio | target | result | load |
|---|---|---|---|---|---|---|
| 200 MB upload: engine time (hash + upload) | 9 s | - | 9.00x | - | PASS | 0.1 |
<!-- end recorded -->
`;

describe('the last recorded table', () => {
  it('is the last one of that benchmark, each figure by its ratio or else its first number', () => {
    const r = parseRecorded(RECORDED, 'bench:sync');
    expect(r?.note).toBe('2025-01-31, quiet machine');
    expect(Object.fromEntries(r!.values)).toEqual({
      '200 MB upload: engine time (hash + upload)': 0.61,
      '200 MB upload: engine peak RSS (VmHWM)': 159,
      '240 files at 120/min: 429 answers': 0,
      'a figure with a | in it': 2000,
    });
    expect(parseRecorded(RECORDED, 'bench:server')).toBeNull();
  });

  it('reads back what BENCH_RECORD=1 prints', () => {
    const rows = [row('x | y', '3.5 s', '1.20x'), row('rss', '120 MB', '-')];
    const back = parseRecorded(recordMarkdown('soak', rows, 'today'), 'soak');
    expect(Object.fromEntries(back!.values)).toEqual({ 'x | y': 1.2, rss: 120 });
  });

  it('has no number for an error or a skipped figure', () => {
    expect(keyNumber(row('f', 'error: the engine run 2 did less than the figure claims', '-'))).toBeNull();
    expect(keyNumber(row('f', 'skipped: no shaped link (needs root)', '-'))).toBeNull();
  });
});

describe('a move past 25%, either way, is marked', () => {
  it('marks the upload figure that fell from 1.66x to 0.61x, and one that rose as far', () => {
    expect(moveText(0.61, 1.66)).toBe('-63% !!');
    expect(moveText(2.2, 1.66)).toBe('+33% !!');
    expect(moveText(1.9, 1.66)).toBe('+14%');
    expect(moveText(1.2475, 1)).toBe('+25%');
    expect(moveText(0.74, 1)).toBe('-26% !!');
  });

  it('compares a zero, and says "new" for a figure never recorded', () => {
    expect(moveText(0, 0)).toBe('+0%');
    expect(moveText(3, 0)).toBe('was 0 !!');
    expect(moveText(3, undefined)).toBe('new');
  });

  it('stamps each row with the load and its move; printReport prints both and the legend', () => {
    const rows = [
      row('200 MB upload: engine time (hash + upload)', '8.90 s', "1.01x curl's time"),
      row('200 MB upload: engine peak RSS (VmHWM)', '150 MB', '-'),
      { ...row('240 files at 120/min: 429 answers', '0', '-'), load: 3.5 },
    ];
    const shown = compareWithRecorded(rows, parseRecorded(RECORDED, 'bench:sync'));
    expect(shown.map((r) => r.vsRecorded)).toEqual(['+66% !!', '-6%', '+0%']);
    expect(shown[2]!.load).toBe(3.5);
    expect(typeof shown[0]!.load).toBe('number');

    const dir = mkdtempSync(join(tmpdir(), 'bench-recorded-'));
    dirs.push(dir);
    writeFileSync(join(dir, 'benchmarks.md'), RECORDED);
    const lines: string[] = [];
    const log = vi.spyOn(console, 'log').mockImplementation((s: unknown) => void lines.push(String(s)));
    try {
      printReport('bench:sync', 'sync engine benchmark', rows, join(dir, 'benchmarks.md'));
    } finally {
      log.mockRestore();
    }
    const printed = lines.join('\n');
    expect(printed).toMatch(/^sync engine benchmark \(load average \d+\.\d\d, \d+\.\d\d over 5 min\)/);
    expect(printed).toMatch(/200 MB upload: engine time \(hash \+ upload\) .* PASS +\d+\.\d\d +\+66% !!/);
    expect(printed).toContain('!! = moved more than 25% either way (1 row): look at it.');
  });
});

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});
