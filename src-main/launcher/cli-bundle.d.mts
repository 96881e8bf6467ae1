export declare const cliOutDir: (root?: string) => string;
export declare const cliBundle: (root?: string) => string;
export declare function bundleIsFresh(root?: string): boolean;
export declare function buildCliBundle(root?: string): Promise<void>;
export declare function runEntry(name: string, root?: string): Promise<void>;
