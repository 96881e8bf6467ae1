import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { stopChildren } from '../../tools/bench/shared/processes';
import { checkServed } from '../../tools/bench/shared/served';
import { bigUploadFigure } from '../../tools/bench/sync/figures/big-upload';

// The upload figures of `npm run bench:sync` time only runs that the server saw upload: here with the
// real reference server and the real engine in its child process, a small file instead of 200 MB.

const SIZE = 2 * 1024 * 1024;
const dirs: string[] = [];
const tempDir = () => {
  const d = mkdtempSync(join(tmpdir(), 'bench-verified-'));
  dirs.push(d);
  return d;
};
afterEach(async () => {
  await stopChildren();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('an upload figure counts its work outside the engine', () => {
  it('fails when the second run adopts the first run’s file instead of uploading it (planted)', async () => {
    // The harness as it was: every engine run into one bucket, a fresh app database each time.
    const planted = bigUploadFigure(tempDir(), { size: SIZE, runs: 2, bucketOf: () => 'bench' });
    await expect(planted).rejects.toThrow(
      /^the engine's run 2 did less than the figure claims \(1 upload of 2,097,152 bytes\): the server received 0 upload requests and 0 bytes$/,
    );
  }, 180_000);

  it('keeps the best of runs that each uploaded the whole file, and says what the server received', async () => {
    const [time] = await bigUploadFigure(tempDir(), { size: SIZE, runs: 2 });
    expect(time?.figure).toBe('2 MB upload: engine time (hash + upload)');
    const received = (text: string) =>
      Number(/1 upload, ([\d,]+) bytes received/.exec(text)?.[1]?.replace(/,/g, ''));
    for (const side of [time!.measured, time!.baseline]) {
      expect(received(side)).toBeGreaterThanOrEqual(SIZE);
      expect(received(side)).toBeLessThan(SIZE + 4096);
    }
  }, 180_000);
});

describe('checkServed', () => {
  const claim = { run: 'run 1', uploads: 2, bytes: 1000 };
  it('accepts what was claimed, with the requests’ overhead', () => {
    expect(() => checkServed({ requests: 2, bytes: 1000 + 700 }, claim)).not.toThrow();
  });
  it('refuses fewer requests or fewer bytes, and more of either', () => {
    expect(() => checkServed({ requests: 1, bytes: 5000 }, claim)).toThrow(/did less/);
    expect(() => checkServed({ requests: 2, bytes: 999 }, claim)).toThrow(/did less/);
    expect(() => checkServed({ requests: 3, bytes: 1500 }, claim)).toThrow(/did more/);
    expect(() => checkServed({ requests: 2, bytes: 1000 + 2 * 4096 + 1 }, claim)).toThrow(/did more/);
  });
  it('lets a figure that counts its 429 answers apart take more requests', () => {
    expect(() => checkServed({ requests: 5, bytes: 1200 }, { ...claim, extraRequests: true })).not.toThrow();
  });
});
