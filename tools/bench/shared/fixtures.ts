import { randomFillSync } from 'node:crypto';
import { closeSync, mkdirSync, openSync, utimesSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';

/** Incompressible bytes, written in 1 MiB chunks (the file is never whole in memory), each chunk distinct. */
export function writeRandomFile(path: string, size: number): void {
  const chunk = randomFillSync(Buffer.alloc(1024 * 1024));
  const fd = openSync(path, 'w');
  try {
    for (let left = size; left > 0; left -= chunk.length) {
      chunk.writeUInt32LE(left, 0);
      writeSync(fd, chunk, 0, Math.min(left, chunk.length));
    }
  } finally {
    closeSync(fd);
  }
}

/**
 * `count` small files of `size` bytes spread over `folders` subfolders, each with distinct content,
 * dated a minute back: files dropped earlier, past the engine's stability window.
 */
export function writeSmallFiles(root: string, count: number, size: number, folders = 1): void {
  const past = new Date(Date.now() - 60_000);
  const body = Buffer.alloc(size, 'x');
  for (let d = 0; d < folders; d++) mkdirSync(folders > 1 ? join(root, `d${d}`) : root, { recursive: true });
  for (let i = 0; i < count; i++) {
    const dir = folders > 1 ? join(root, `d${i % folders}`) : root;
    const path = join(dir, `f${i}.txt`);
    body.write(`file ${i} `, 0);
    writeFileSync(path, body);
    utimesSync(path, past, past);
  }
}
