import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

type Gc = (options?: { type: 'minor' | 'major'; execution?: 'sync' }) => void;

/**
 * Streamed uploads allocate a fresh 64 KiB buffer per socket read. Their memory is outside the JS heap and is
 * only given back when the small wrappers that own it are collected, which V8 does late (after tens of MB), so
 * a 200 MB upload would lift the resident size by ~35 MB. A minor collection every few MB received frees them
 * at once for about a millisecond each.
 */
function loadGc(): Gc | null {
  try {
    setFlagsFromString('--expose-gc');
    return runInNewContext('gc') as Gc;
  } catch {
    return null;
  }
}

const gc = loadGc();
const EVERY_BYTES = 8 * 1024 * 1024;

/** Call with each received chunk's size. */
export function releaseReceivedBuffers(): (bytes: number) => void {
  let since = 0;
  return (bytes) => {
    since += bytes;
    if (since < EVERY_BYTES || !gc) return;
    since = 0;
    gc({ type: 'minor' });
  };
}
