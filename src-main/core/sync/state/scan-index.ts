import { FILE_STATES, type FileState } from '../types';

/**
 * The rows of one folder as a scan compares them with the disk (per row: id, state, size, mtime, inode,
 * reason code), found by path. Built to cost little memory: no JS object per row. Paths are kept as
 * UTF-8 bytes, one buffer per page of rows read ('\0'-joined), found through an open-addressing hash
 * table; the numbers live in typed arrays. 100,000 rows take about 7 MB, all of it outside the JS heap,
 * built from pages of 5,000 rows so that every array made on the way dies young (files-store.ts reads
 * them). Nothing of it outlives a young-generation collection, so a scan does not make V8 grow its
 * young generation for good. A Map of tuples took 20 MB and kept the garbage collector busy,
 * and its pages stayed resident long after the scan (docs/benchmarks.md).
 *
 * The typed arrays are handed on when the scan ends (release()): the engine scans a folder again as
 * soon as its watcher is up, and the second index then costs no new memory, where it used to leave the
 * first one behind as garbage that no collection came for while the app sat watching.
 */
export class ScanIndex {
  private readonly pages: Buffer[] = [];
  private t: Tables;
  /** Reason codes of the few rows that have one, by row. */
  private readonly reasons = new Map<number, string>();
  private count = 0;
  private released = false;

  /** `capacity`: the number of rows expected (the folder's row count); more are made room for. */
  constructor(capacity: number) {
    this.t = tablesFor(capacity);
  }

  /** Adds one page of rows: their paths in UTF-8 joined by '\0', and their columns in the same order. */
  addPage(names: Buffer, columns: ScanPage): void {
    // Rows added since the count was taken (the pages are read apart): make room, rarely.
    if (this.count + columns.ids.length > this.live().capacity)
      this.grow(2 * (this.count + columns.ids.length));
    const t = this.t;
    const page = this.pages.length;
    this.pages.push(names);
    const mask = t.slots.length - 1;
    let start = 0;
    for (let k = 0; k < columns.ids.length; k++) {
      let end = names.indexOf(0, start);
      if (end < 0) end = names.length;
      const row = this.count++;
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
      place(t, row, hashOf(names, start, end) & mask);
      start = end + 1;
    }
  }

  /** New tables for `capacity` rows holding the rows so far (the old ones go to waste: rare). */
  private grow(capacity: number): void {
    const old = this.t;
    const t = allocate(capacity);
    for (const key of COLUMNS) t[key].set(old[key].subarray(0, this.count));
    const mask = t.slots.length - 1;
    for (let row = 0; row < this.count; row++) {
      const page = this.pages[t.pageOf[row]!]!;
      const start = t.starts[row]!;
      place(t, row, hashOf(page, start, start + t.lengths[row]!) & mask);
    }
    this.t = t;
  }

  get size(): number {
    return this.count;
  }

  /** The row of a path (relative to the folder), or -1. */
  lookup(name: string): number {
    const t = this.live();
    const mask = t.slots.length - 1;
    // Most paths are ASCII: their UTF-8 bytes are their code units, hashed and compared in place.
    let h = FNV_OFFSET;
    for (let i = 0; i < name.length; i++) {
      const c = name.charCodeAt(i);
      if (c >= 0x80) return this.lookupEncoded(name);
      h = Math.imul(h ^ c, FNV_PRIME);
    }
    for (let slot = (h >>> 0) & mask; ; slot = (slot + 1) & mask) {
      const entry = t.slots[slot]!;
      if (entry === 0) return -1;
      const row = entry - 1;
      if (t.lengths[row] === name.length && sameAscii(this.pages[t.pageOf[row]!]!, t.starts[row]!, name))
        return row;
    }
  }

  /** The row of a path given as UTF-8 bytes[start, end) (find's output, read in place), or -1. */
  lookupUtf8(bytes: Buffer, start: number, end: number): number {
    const t = this.live();
    const mask = t.slots.length - 1;
    const length = end - start;
    for (let slot = hashOf(bytes, start, end) & mask; ; slot = (slot + 1) & mask) {
      const entry = t.slots[slot]!;
      if (entry === 0) return -1;
      const row = entry - 1;
      if (
        t.lengths[row] === length &&
        samePath(this.pages[t.pageOf[row]!]!, t.starts[row]!, bytes, start, length)
      )
        return row;
    }
  }

  private lookupEncoded(name: string): number {
    const t = this.t;
    if (scratch.length < name.length * 3) scratch = Buffer.allocUnsafe(name.length * 3);
    const length = scratch.write(name, 0, 'utf8');
    const mask = t.slots.length - 1;
    for (let slot = hashOf(scratch, 0, length) & mask; ; slot = (slot + 1) & mask) {
      const entry = t.slots[slot]!;
      if (entry === 0) return -1;
      const row = entry - 1;
      if (t.lengths[row] === length && sameBytes(this.pages[t.pageOf[row]!]!, t.starts[row]!, length))
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

const COLUMNS = ['pageOf', 'starts', 'lengths', 'ids', 'sizes', 'mtimes', 'inodes', 'states'] as const;

/** Puts a row in the first free slot from `slot` on (the table is at most half full). */
function place(t: Tables, row: number, slot: number): void {
  const mask = t.slots.length - 1;
  let s = slot;
  while (t.slots[s] !== 0) s = (s + 1) & mask;
  t.slots[s] = row + 1;
}

function slotsFor(capacity: number): number {
  let slotCount = 16;
  while (slotCount < capacity * 2) slotCount *= 2;
  return slotCount;
}

function tablesFor(capacity: number): Tables {
  const reuse = spare;
  // Taken if large enough and not wastefully so (a small folder after a large one gets its own).
  if (reuse && reuse.capacity >= capacity && reuse.slots.length <= slotsFor(capacity) * 4) {
    spare = null;
    reuse.met.fill(0);
    reuse.slots.fill(0);
    return reuse;
  }
  return allocate(capacity);
}

function allocate(capacity: number): Tables {
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
    slots: new Int32Array(slotsFor(capacity)),
  };
}

const UNKNOWN_STATE = 255;

/** A path being looked up, in UTF-8 (one per process: lookups never overlap). */
let scratch = Buffer.allocUnsafe(4096);

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

/** FNV-1a over bytes[start, end). */
function hashOf(bytes: Buffer, start: number, end: number): number {
  let h = FNV_OFFSET;
  for (let i = start; i < end; i++) h = Math.imul(h ^ bytes[i]!, FNV_PRIME);
  return h >>> 0;
}

/** Whether page[start, start + name.length) holds `name`, a path of ASCII characters only. */
function sameAscii(page: Buffer, start: number, name: string): boolean {
  for (let i = 0; i < name.length; i++) if (page[start + i] !== name.charCodeAt(i)) return false;
  return true;
}

/** Whether page[start, start + length) holds the bytes of the path in `scratch`. */
function sameBytes(page: Buffer, start: number, length: number): boolean {
  return samePath(page, start, scratch, 0, length);
}

function samePath(page: Buffer, start: number, bytes: Buffer, from: number, length: number): boolean {
  for (let i = 0; i < length; i++) if (page[start + i] !== bytes[from + i]) return false;
  return true;
}
