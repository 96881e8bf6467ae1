import type { ChildProcess } from 'node:child_process';

export interface FindRun {
  /** find's output file (unlinked), read from its start by whoever reads it. */
  out: number;
  child: ChildProcess;
  exited: Promise<{ code: number | null; error?: NodeJS.ErrnoException }>;
  stderr(): string;
}

export declare function startFind(root: string): FindRun | null;
export declare const EARLY_FIND_MAX_AGE_MS: number;
export declare function startEarlyFind(root: string): void;
export declare function takeEarlyFind(root: string): FindRun | undefined;
export declare function hasEarlyFind(root: string): boolean;
export declare function dropEarlyFind(): void;
