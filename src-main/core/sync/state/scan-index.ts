import { FILE_STATES, type FileState } from '../types';

/**
 * The rows of one folder as a scan compares them with the disk (per row: id, state, size, mtime, inode,
 * reason code), found by path. Built to cost little memory: no JS object per row. Paths are kept as a
 * few long strings (one per page of rows read, '\0'-joined) with offsets, found through an
 * open-addressing hash table; the numbers live in typed arrays. 100,000 rows take about 7 MB, most of it
 * outside the JS heap, built from pages of 5,000 rows so that every string and array made on the way
 * dies young (files-store.ts reads them). A Map of tuples took 20 MB and kept the garbage collector busy,
 * and its pages stayed resident long after the scan (docs/benchmarks.md).
 *
 * The typed arrays are handed on when the scan ends (release()): the engine scans a folder again as
 * soon as its watcher is up, and the second index then costs no new memory, where it used to leave the
 * first one behind as garbage that no collection came for while the app sat watching.
 */
export class ScanIndex {
  private readonly pages: string[] = [];
  private readonly t: Tables;
  /** Reason codes of the few rows that have one, by row. */
  private readonly reasons = new Map<number, string>();
  private count = 0;
  private released = false;

  /** `capacity`: the number of rows that will be added (the folder's row count). */
  constructor(capacity: number) {
    this.t = tablesFor(capacity);
  }

  /** Adds one page of rows: `names` joined by '\0', and the columns of the same rows in the same order. */
  addPage(names: string, columns: ScanPage): void {
    const t = this.live();
    const page = this.pages.length;
    this.pages.push(names);
    const mask = t.slots.length - 1;
    let start = 0;
    for (let k = 0; k < columns.ids.length; k++) {
      let end = names.indexOf('\0', start);
      if (end < 0) end = names.length;
      const row = this.count++;
      if (row >= t.capacity) throw new Error('scan index: more rows than announced');
      t.pageOf[row] = page;
      t.starts[row] = start;
      t.lengths[row] = end - start;
      t.ids[row] = columns.ids[k]!;
      t.sizes[row] = columns.sizes[k] ?? Number.NaN;
      t.mtimes[row] = columns.mtimes[k] ?? Number.NaN;
      t.inodes[row] = columns.inodes[k] ?? Number.NaN;
      t.states[row] = columns.states[k] ?? UNKNOWN_STATE;
      const reason = columns.reasons[k];
      if (reason != null) this.reasons.set(row, reason);
      let slot = hashOf(names, start, end) & mask;
      while (t.slots[slot] !== 0) slot = (slot + 1) & mask;
      t.slots[slot] = row + 1;
      start = end + 1;
    }
  }

  get size(): number {
    return this.count;
  }

  /** The row of a path (relative to the folder), or -1. */
  lookup(name: string): number {
    const t = this.live();
    const mask = t.slots.length - 1;
    for (let slot = hashOf(name, 0, name.length) & mask; ; slot = (slot + 1) & mask) {
      const entry = t.slots[slot]!;
      if (entry === 0) return -1;
      const row = entry - 1;
      if (t.lengths[row] === name.length && this.pages[t.pageOf[row]!]!.startsWith(name, t.starts[row]))
        return row;
    }
  }

  id(row: number): number {
    return this.live().ids[row]!;
  }

  state(row: number): FileState | null {
    return FILE_STATES[this.live().states[row]!] ?? null;
  }

  reasonCode(row: number): string | null {
    return this.reasons.get(row) ?? null;
  }

  /** Whether the row holds exactly this size, mtime and inode (a null column never matches). */
  sameStat(row: number, size: number, mtimeMs: number, inode: number): boolean {
    const t = this.live();
    return t.sizes[row] === size && t.mtimes[row] === mtimeMs && t.inodes[row] === inode;
  }

  markMet(row: number): void {
    this.live().met[row] = 1;
  }

  /** The rows the walk did not meet, in the order they were added. */
  unmet(): number[] {
    const t = this.live();
    const out: number[] = [];
    for (let i = 0; i < this.count; i++) if (t.met[i] === 0) out.push(i);
    return out;
  }

  /** Done with it: its tables go to the next index built (this one must not be used again). */
  release(): void {
    if (this.released) return;
    this.released = true;
    this.pages.length = 0;
    if (!spare || spare.capacity < this.t.capacity) spare = this.t;
  }

  private live(): Tables {
    if (this.released) throw new Error('scan index used after release()');
    return this.t;
  }
}

/** One page of rows as read: one array per column, row k at index k in each; state as FILE_STATES' index. */
export interface ScanPage {
  ids: readonly number[];
  states: readonly (number | null)[];
  sizes: readonly (number | null)[];
  mtimes: readonly (number | null)[];
  inodes: readonly (number | null)[];
  reasons: readonly (string | null)[];
}

/** Per row: the page holding its path and where the path is in it; the columns; whether it was met. */
interface Tables {
  capacity: number;
  pageOf: Uint32Array;
  starts: Uint32Array;
  lengths: Uint32Array;
  ids: Float64Array;
  sizes: Float64Array;
  mtimes: Float64Array;
  inodes: Float64Array;
  states: Uint8Array;
  met: Uint8Array;
  /** Open addressing, linear probing: row + 1 per slot, 0 for an empty slot. */
  slots: Int32Array;
}

/** The tables of the last index released, the largest one if several were (one set per process). */
let spare: Tables | null = null;

function tablesFor(capacity: number): Tables {
  let slotCount = 16;
  while (slotCount < capacity * 2) slotCount *= 2;
  const reuse = spare;
  // Taken if large enough and not wastefully so (a small folder after a large one gets its own).
  if (reuse && reuse.capacity >= capacity && reuse.slots.length <= slotCount * 4) {
    spare = null;
    reuse.met.fill(0);
    reuse.slots.fill(0);
    return reuse;
  }
  return {
    capacity,
    pageOf: new Uint32Array(capacity),
    starts: new Uint32Array(capacity),
    lengths: new Uint32Array(capacity),
    ids: new Float64Array(capacity),
    sizes: new Float64Array(capacity),
    mtimes: new Float64Array(capacity),
    inodes: new Float64Array(capacity),
    states: new Uint8Array(capacity),
    met: new Uint8Array(capacity),
    slots: new Int32Array(slotCount),
  };
}

const UNKNOWN_STATE = 255;

/** FNV-1a over UTF-16 code units of text[start, end): the same for a path and the same path in a page. */
function hashOf(text: string, start: number, end: number): number {
  let h = 0x811c9dc5;
  for (let i = start; i < end; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h >>> 0;
}
