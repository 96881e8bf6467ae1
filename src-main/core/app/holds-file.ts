import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { z } from 'zod';
import { HoldsSchema } from '../../../src-shared/contract/sync';
import type { Holds } from '../../../src-shared/domain/status-model';

const NAME = 'sync-holds.json';

/**
 * The holds in force, as the running app's engine knows them, for `assets-sync status` (which reads the
 * local state only and runs no engine): without them it said "syncing" while the app said "Paused by the
 * schedule". Written when they change (a few times a day), removed when the engine stops; a reader
 * trusts the file only while its writer lives, and a hold whose end has passed is over.
 */
export const holdsFile = (dataDir: string) => liveFactsFile<Holds>(dataDir, NAME);

/**
 * A fact of the running app for the CLI, in a file of the data folder beside the writer's pid: written
 * when it changes, removed when the app lets go of it (the holds, the leads' link).
 */
export function liveFactsFile<T>(dataDir: string, name: string) {
  const path = join(dataDir, name);
  let last = '';
  return {
    write(facts: T): void {
      const text = JSON.stringify(facts);
      if (text === last) return;
      last = text;
      try {
        writeFileSync(`${path}.tmp`, JSON.stringify({ pid: process.pid, holds: facts }), { mode: 0o600 });
        renameSync(`${path}.tmp`, path);
      } catch {
        last = ''; // a data folder being removed: the next change tries again
      }
    },
    remove(): void {
      last = '';
      rmSync(path, { force: true });
    },
  };
}

/** What a running app wrote with `liveFactsFile`, or null when none runs on this data folder (or it is unreadable). */
export function readLiveFacts<T>(dataDir: string, name: string, schema: z.ZodType<T>): T | null {
  let raw: { pid?: unknown; holds?: unknown };
  try {
    raw = JSON.parse(readFileSync(join(dataDir, name), 'utf8'));
  } catch {
    return null;
  }
  if (typeof raw.pid !== 'number' || !alive(raw.pid)) return null;
  const parsed = schema.safeParse(raw.holds);
  return parsed.success ? parsed.data : null;
}

/** The running app's holds, or null when no app runs on this data folder. */
export function readAppHolds(dataDir: string, now = Date.now()): Holds | null {
  const h = readLiveFacts(dataDir, NAME, HoldsSchema);
  if (!h) return null;
  const over = (x: { until: number | null } | null) => (x && x.until !== null && x.until <= now ? null : x);
  return {
    ...h,
    schedule: over(h.schedule),
    rateLimited: over(h.rateLimited),
    officeWait: over(h.officeWait),
  };
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}
