export interface FindExit {
  code: number | null;
  error?: NodeJS.ErrnoException;
}

export interface FindRun {
  /** Each find's output file (unlinked), in order: read one after the other, from its start, they are one walk. */
  parts: { out: number; exited: Promise<FindExit> }[];
  /** Once every find ended: the first that failed, else the first. */
  exited: Promise<FindExit>;
  stderr(): string;
  /** Stops the finds still walking. */
  stop(): void;
  /** Closes the output files (once; later calls do nothing). */
  close(): void;
}

export declare const SPLIT_FROM: number;
export declare function startFind(
  root: string,
  options?: { parts?: number; splitFrom?: number },
): FindRun | null;
export declare const EARLY_FIND_MAX_AGE_MS: number;
export declare function startEarlyFind(root: string): void;
export declare function takeEarlyFind(root: string): FindRun | undefined;
export declare function hasEarlyFind(root: string): boolean;
export declare function dropEarlyFind(): void;
