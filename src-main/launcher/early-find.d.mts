export declare function syncFolderOf(argv: string[]): string | null;
export declare function startEarlyFindFor(argv: string[]): void;
