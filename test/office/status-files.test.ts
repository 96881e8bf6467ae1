import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readDeskStatuses } from '../../src-main/core/office/desk-of';
import type { OfficeStatus } from '../../src-shared/contract/office';

/**
 * The status files `assets-sync status` reads (desk-of.ts): each running desk writes its own beside, then
 * renames it over, once a second, so a reader never sees a half-written one; the one beside is not a desk.
 */
const status: OfficeStatus = {
  mode: 'office',
  desks: 3,
  sharePerMinute: 38.3,
  ceiling: 115,
  holder: 'self',
  pausedForMs: 0,
  port: 40_000,
  officeName: 'Office',
  peers: [],
  discovery: [],
  keyed: false,
  refused: { total: 0, from: [] },
};

describe("the desks' status files", () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });

  it('a status being written beside the file (.tmp) is not a second desk', () => {
    const dir = mkdtempSync(join(tmpdir(), 'desk-status-'));
    dirs.push(dir);
    mkdirSync(join(dir, 'office'));
    const text = JSON.stringify({ pid: 4242, at: Date.now(), status });
    writeFileSync(join(dir, 'office', '4242.json'), text);
    writeFileSync(join(dir, 'office', '4242.json.tmp'), text);
    expect(readDeskStatuses(dir)).toEqual([status]);
  });
});
