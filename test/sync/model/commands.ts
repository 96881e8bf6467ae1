import { createHash } from 'node:crypto';
import { existsSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { noTransientRow, settled } from './checks';
import { md5Hex, type RunEnv, setWallet, writeKey } from './run-env';

/** What the test believes: each folder's files on disk (name -> content label), and the switches. */
export interface Model {
  files: Map<string, string>[];
  added: boolean[];
  /** The folder's directory is moved away (renamed, as an unmounted disk would vanish). */
  away: boolean[];
  paused: boolean;
  drained: boolean;
  faults: { storage: number; reset: number };
}

export const newModel = (slots: number): Model => ({
  files: Array.from({ length: slots }, () => new Map()),
  added: Array.from({ length: slots }, () => false),
  away: Array.from({ length: slots }, () => false),
  paused: false,
  drained: false,
  faults: { storage: 0, reset: 0 },
});

/** A few names: two in a subfolder, one the service refuses (.exe), so skips and renames across folders happen. */
export const NAMES = ['a.png', 'b.txt', 'c.pdf', 'sub/d.jpg', 'sub/e.png', 'f.exe'] as const;
/** Contents by label: empty (skipped EMPTY) and three sizes of bytes that follow from the label. */
export const CONTENTS = ['empty', 'small', 'medium', 'large', 'small2'] as const;
const SIZES: Record<string, number> = { empty: 0, small: 300, medium: 4_000, large: 40_000, small2: 300 };

export function bytesOf(label: string): Buffer {
  const size = SIZES[label] ?? 0;
  const out = Buffer.alloc(size);
  let block = createHash('sha256').update(label).digest();
  for (let at = 0; at < size; at += block.length) {
    block.copy(out, at);
    block = createHash('sha256').update(block).digest();
  }
  return out;
}

type Cmd = fc.AsyncCommand<Model, RunEnv>;

const slotArb = fc.integer({ min: 0, max: 1 });
const nameArb = fc.constantFrom(...NAMES);

/** Counts a version written on disk: the service may store it once per write, never more. */
function wrote(env: RunEnv, slot: number, name: string, label: string) {
  if (label === 'empty' || name.endsWith('.exe')) return;
  const key = writeKey(env.slots[slot]!.bucket, name, md5Hex(bytesOf(label)));
  env.writes.set(key, (env.writes.get(key) ?? 0) + 1);
}

class WriteFile implements Cmd {
  constructor(
    readonly slot: number,
    readonly name: string,
    readonly label: string,
  ) {}
  check = (m: Readonly<Model>) => !m.away[this.slot];
  async run(m: Model, env: RunEnv) {
    writeFileSync(join(env.slots[this.slot]!.dir, this.name), bytesOf(this.label));
    m.files[this.slot]!.set(this.name, this.label);
    wrote(env, this.slot, this.name, this.label);
  }
  toString = () => `write(${this.slot}, ${this.name}, ${this.label})`;
}

class RenameFile implements Cmd {
  constructor(
    readonly slot: number,
    readonly from: string,
    readonly to: string,
  ) {}
  check = (m: Readonly<Model>) =>
    !m.away[this.slot] && this.from !== this.to && m.files[this.slot]!.has(this.from);
  async run(m: Model, env: RunEnv) {
    const dir = env.slots[this.slot]!.dir;
    renameSync(join(dir, this.from), join(dir, this.to));
    const files = m.files[this.slot]!;
    const label = files.get(this.from)!;
    files.delete(this.from);
    files.set(this.to, label);
    wrote(env, this.slot, this.to, label);
  }
  toString = () => `rename(${this.slot}, ${this.from} -> ${this.to})`;
}

class DeleteFile implements Cmd {
  constructor(
    readonly slot: number,
    readonly name: string,
  ) {}
  check = (m: Readonly<Model>) => !m.away[this.slot] && m.files[this.slot]!.has(this.name);
  async run(m: Model, env: RunEnv) {
    rmSync(join(env.slots[this.slot]!.dir, this.name), { force: true });
    m.files[this.slot]!.delete(this.name);
  }
  toString = () => `delete(${this.slot}, ${this.name})`;
}

class AddFolder implements Cmd {
  constructor(readonly slot: number) {}
  check = (m: Readonly<Model>) => !m.added[this.slot] && !m.away[this.slot];
  async run(m: Model, env: RunEnv) {
    const s = env.slots[this.slot]!;
    // What the bucket holds before: a mirror folder adopts what matches and leaves the rest alone.
    const before = new Set<number>();
    for await (const f of env.client.listAllFiles({ bucket: s.bucket })) before.add(f.id);
    env.preAdd[this.slot] = before;
    const r = await env.h.engine.addFolder({ path: s.dir, bucket: s.bucket, mode: s.mode });
    if (!r.ok) throw new Error(`addFolder refused: ${r.error.code} ${r.error.message}`);
    env.folderIds[this.slot] = r.value.id;
    m.added[this.slot] = true;
  }
  toString = () => `add(${this.slot})`;
}

class RemoveFolder implements Cmd {
  constructor(readonly slot: number) {}
  check = (m: Readonly<Model>) => m.added[this.slot]!;
  async run(m: Model, env: RunEnv) {
    const r = await env.h.engine.removeFolder(env.folderIds[this.slot]!);
    if (!r.ok) throw new Error(`removeFolder refused: ${r.error.code} ${r.error.message}`);
    env.folderIds[this.slot] = null;
    m.added[this.slot] = false;
  }
  toString = () => `remove(${this.slot})`;
}

/** The folder's directory vanishes (moved away, a disk unplugged), or comes back. */
export class MoveFolder implements Cmd {
  constructor(
    readonly slot: number,
    readonly back: boolean,
  ) {}
  check = (m: Readonly<Model>) => m.away[this.slot] === this.back;
  async run(m: Model, env: RunEnv) {
    const dir = env.slots[this.slot]!.dir;
    if (this.back) renameSync(`${dir}.away`, dir);
    else renameSync(dir, `${dir}.away`);
    m.away[this.slot] = !this.back;
  }
  toString = () => `${this.back ? 'bring back' : 'move away'}(${this.slot})`;
}

class Pause implements Cmd {
  check = (m: Readonly<Model>) => !m.paused;
  async run(m: Model, env: RunEnv) {
    env.h.engine.pause();
    m.paused = true;
  }
  toString = () => 'pause';
}

class Resume implements Cmd {
  check = (m: Readonly<Model>) => m.paused;
  async run(m: Model, env: RunEnv) {
    env.h.engine.resume();
    m.paused = false;
  }
  toString = () => 'resume';
}

class Faults implements Cmd {
  constructor(
    readonly storage: number,
    readonly reset: number,
  ) {}
  check = () => true;
  async run(m: Model, env: RunEnv) {
    const r = await env.server.admin('PUT', '/faults', {
      storage_fail_rate: this.storage,
      connection_reset_rate: this.reset,
    });
    if (r.status !== 200) throw new Error(`faults refused: ${JSON.stringify(r.json)}`);
    m.faults = { storage: this.storage, reset: this.reset };
  }
  toString = () => `faults(storage ${this.storage}, reset ${this.reset})`;
}

class Drain implements Cmd {
  check = (m: Readonly<Model>) => !m.drained;
  async run(m: Model, env: RunEnv) {
    await setWallet(env, true);
    m.drained = true;
  }
  toString = () => 'drain';
}

class TopUp implements Cmd {
  check = (m: Readonly<Model>) => m.drained;
  async run(m: Model, env: RunEnv) {
    await setWallet(env, false);
    m.drained = false;
  }
  toString = () => 'top up';
}

class Restart implements Cmd {
  check = () => true;
  async run(m: Model, env: RunEnv) {
    await env.restart();
    // A new engine starts unpaused (the app keeps Pause all in its settings; this test has none).
    m.paused = false;
  }
  toString = () => 'restart';
}

/** Waits until the engine settles mid-sequence (not while paused or drained: then it waits by design). */
class Settle implements Cmd {
  check = (m: Readonly<Model>) => !m.paused && !m.drained;
  async run(_m: Model, env: RunEnv) {
    await settled(env, 'mid-sequence');
    const problems = noTransientRow(env, 'mid-sequence');
    if (problems.length) throw new Error(problems.join('\n'));
  }
  toString = () => 'settle';
}

/** Lets the engine work for a while (real time: the watcher, the network and the worker thread run in it). */
class Let implements Cmd {
  constructor(readonly ms: number) {}
  check = () => true;
  async run() {
    await new Promise((r) => setTimeout(r, this.ms));
  }
  toString = () => `let(${this.ms} ms)`;
}

const write = fc
  .tuple(slotArb, nameArb, fc.constantFrom(...CONTENTS))
  .map(([s, n, c]) => new WriteFile(s, n, c));
const rename = fc.tuple(slotArb, nameArb, nameArb).map(([s, a, b]) => new RenameFile(s, a, b));
const remove = fc.tuple(slotArb, nameArb).map(([s, n]) => new DeleteFile(s, n));
const wait = fc.integer({ min: 20, max: 400 }).map((ms) => new Let(ms));

/** The commands, weighted by repeating: files change most, the engine and the world around it less often. */
export const commandArbs = [
  write,
  write,
  write,
  write,
  rename,
  rename,
  remove,
  remove,
  wait,
  wait,
  wait,
  slotArb.map((s) => new AddFolder(s)),
  slotArb.map((s) => new RemoveFolder(s)),
  fc.constant(new Pause()),
  fc.constant(new Resume()),
  fc.tuple(fc.constantFrom(0, 0.3, 1), fc.constantFrom(0, 0.2)).map(([s, r]) => new Faults(s, r)),
  fc.constant(new Drain()),
  fc.constant(new TopUp()),
  fc.constant(new Restart()),
  fc.constant(new Settle()),
  slotArb.map((s) => new MoveFolder(s, false)),
  slotArb.map((s) => new MoveFolder(s, true)),
];

/**
 * Every run starts from a synced state: both folders added with a few files each, all of them live
 * (or skipped), so that the commands change what the service holds, not only what it is about to get.
 */
export async function seedRun(m: Model, env: RunEnv): Promise<void> {
  const first: [number, string, string][] = [
    [0, 'a.png', 'small'],
    [0, 'sub/d.jpg', 'medium'],
    [0, 'f.exe', 'small'],
    [1, 'b.txt', 'small2'],
    [1, 'c.pdf', 'large'],
  ];
  for (const [slot, name, label] of first) await new WriteFile(slot, name, label).run(m, env);
  for (let slot = 0; slot < env.slots.length; slot++) await new AddFolder(slot).run(m, env);
  await env.h.engine.waitUntilSettled();
}

/** Whether a disk path exists (a check of the model against the disk, for the report). */
export const onDisk = (env: RunEnv, slot: number, name: string) =>
  existsSync(join(env.slots[slot]!.dir, name));
