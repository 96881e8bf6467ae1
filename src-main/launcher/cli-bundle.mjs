// The `assets-sync` CLI as an esbuild bundle in out/cli, rebuilt when a source is newer than it.
// Plain JavaScript: bin/assets-sync.mjs needs it before anything can run TypeScript.
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  statSync,
  unlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { dirname, extname, join } from 'node:path';
import { pathToFileURL } from 'node:url';

const ROOT = join(import.meta.dirname, '..', '..');

/**
 * The bundle's entry points (out/cli/<name>.mjs): the CLI, and where the tools folder is present (a
 * checkout, not the packaged app) the benchmark and soak harnesses, started by name (cli-entry.ts) so
 * that their memory and start-up figures are those of the bundle too.
 */
const PRODUCT_ENTRIES = { 'assets-sync': 'src-main/cli/main.ts' };
const TOOL_ENTRIES = {
  tools: 'tools/main.ts',
  'app-service-child': 'tools/bench/sync/figures/app-service-child.ts',
  'soak-app-child': 'tools/soak/app-child.ts',
};

/**
 * The sync path, built apart: the CLI's `sync` command (`cli-sync`, which main.ts loads by that name)
 * and the benchmark's engine child, the processes whose start is measured (the restart figure). In
 * one build with code splitting, a module reached through a barrel (src-main/core/index.ts,
 * internal.ts) is loaded by every entry that reaches the barrel as soon as any entry uses it: `sync`
 * and the engine child loaded the app service, every contract schema, the KB client and undici at
 * start (2.3 MB). Built together, these two load what `sync` uses (about 1 MB, zod most of it); the
 * second build costs about as much again as the first, in parallel.
 */
const PRODUCT_SYNC_PATH = { 'cli-sync': 'src-main/cli/commands/sync.ts' };
const TOOL_SYNC_PATH = { 'engine-child': 'tools/bench/sync/engine-child.ts' };
const withTools = (root) => existsSync(join(root, 'tools'));
const sharedEntries = (root) => (withTools(root) ? { ...PRODUCT_ENTRIES, ...TOOL_ENTRIES } : PRODUCT_ENTRIES);
const syncPathEntries = (root) =>
  withTools(root) ? { ...PRODUCT_SYNC_PATH, ...TOOL_SYNC_PATH } : PRODUCT_SYNC_PATH;
const entryPoints = (root) => ({ ...sharedEntries(root), ...syncPathEntries(root) });

/** What the bundle is made of: a change to any of these makes it stale (a folder that is absent is skipped). */
const SOURCE_DIRS = ['src-main', 'src-shared', 'tools'];
const SOURCE_FILES = ['package.json', 'tsconfig.json'];

/** Chunks no build uses any more are deleted once this old (a process that started just before a rebuild may still load them). */
const OLD_CHUNK_MS = 60 * 60 * 1000;

/** Where the bundle of `root` lives. It must stay inside the project: its packages resolve from node_modules above it. */
export const cliOutDir = (root = ROOT) => join(root, 'out', 'cli');
export const cliBundle = (root = ROOT) => join(cliOutDir(root), 'assets-sync.mjs');

/**
 * True when the bundle exists and no source changed since its build started. Stat only: this runs
 * at every start. ctime, not mtime: an edit that keeps an old mtime (cp -p, touch -d) still changes
 * ctime, and a directory's ctime moves when a file in it is added, removed or renamed.
 */
export function bundleIsFresh(root = ROOT) {
  let builtAt;
  try {
    builtAt = statSync(cliBundle(root)).mtimeMs;
  } catch {
    return false;
  }
  for (const f of SOURCE_FILES) {
    const st = statSync(join(root, f), { throwIfNoEntry: false });
    if (st && st.ctimeMs > builtAt) return false;
  }
  return SOURCE_DIRS.every((d) => !changedUnder(join(root, d), builtAt));
}

function changedUnder(dir, since) {
  const st = statSync(dir, { throwIfNoEntry: false });
  if (!st) return false;
  if (st.ctimeMs > since) return true;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, entry.name);
    if (entry.isDirectory() ? changedUnder(p, since) : statSync(p).ctimeMs > since) return true;
  }
  return false;
}

/**
 * Builds the bundle of `root` into out/cli. Several processes may build at once and others may be
 * starting from the bundle meanwhile: every file is written under a temporary name and renamed, the
 * chunks (content-hashed names) before the entries that import them, so a reader sees either the
 * old build or the new one, whole. The entries get the build's start time as mtime: a source saved
 * during the build is newer, and the next start rebuilds.
 */
export async function buildCliBundle(root = ROOT) {
  const startedAt = new Date();
  const esbuild = await import('esbuild');
  const outDir = cliOutDir(root);
  const syncPath = syncPathEntries(root);
  const locations = sourceLocations();
  const options = (entries, plugins) => ({
    absWorkingDir: root,
    entryPoints: Object.fromEntries(Object.entries(entries).map(([k, v]) => [k, join(root, v)])),
    outdir: outDir,
    outExtension: { '.js': '.mjs' },
    chunkNames: 'chunks/[name]-[hash]',
    bundle: true,
    // Each command stays its own chunk, loaded on demand: `reference-server` never loads the sync engine.
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    // node_modules load as usual (native modules, their own data files), but for INLINED_PACKAGES.
    define: { __CLI_BUNDLE__: 'true' },
    plugins: [locations, packagesOutside, pureModules(root), ...plugins],
    // A package inlined as CommonJS asks for Node's modules with require(), which an ES module lacks.
    // (import.meta spelt with brackets: sourceLocations would rewrite the dotted form in this file.)
    banner: {
      js: "import { createRequire as __cliRequire } from 'node:module';\nconst require = __cliRequire(import.meta['url']);",
    },
    write: false,
    logLevel: 'silent',
  });
  try {
    const results = await Promise.all([
      esbuild.build(options(sharedEntries(root), [syncPathImports(root, PRODUCT_SYNC_PATH)])),
      esbuild.build(options(syncPath, [])),
    ]);
    mkdirSync(join(outDir, 'chunks'), { recursive: true });
    const entries = new Set(Object.keys(entryPoints(root)).map((name) => join(outDir, `${name}.mjs`)));
    const files = results.flatMap((r) => r.outputFiles);
    for (const f of files) if (!entries.has(f.path)) writeChunk(f.path, f.contents);
    for (const f of files) if (entries.has(f.path)) writeAtomically(f.path, f.contents, startedAt);
    pruneChunks(join(outDir, 'chunks'), new Set(files.map((f) => f.path)));
  } finally {
    // esbuild's service process would otherwise live as long as this one (a server runs for days).
    await esbuild.stop();
  }
}

/**
 * In the CLI's entry (main.ts), an import of a module of the sync path's build (PRODUCT_SYNC_PATH)
 * loads that build's entry, next to it in out/cli, instead of a chunk of the shared build.
 */
function syncPathImports(root, entries) {
  const main = join(root, PRODUCT_ENTRIES['assets-sync']);
  const byPath = new Map(Object.entries(entries).map(([name, source]) => [join(root, source), name]));
  return {
    name: 'sync-path-imports',
    setup(build) {
      build.onResolve({ filter: /^\./ }, (args) => {
        if (args.importer !== main) return undefined;
        const base = join(dirname(args.importer), args.path);
        const name = byPath.get(base) ?? byPath.get(`${base}.ts`);
        return name ? { path: `./${name}.mjs`, external: true } : undefined;
      });
    },
  };
}

function writeAtomically(path, contents, mtime) {
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, contents);
  if (mtime) utimesSync(tmp, mtime, mtime);
  renameSync(tmp, path);
}

/** A chunk's name carries a hash of its content: one already there with that name and size is this one. */
function writeChunk(path, contents) {
  const st = statSync(path, { throwIfNoEntry: false });
  if (st?.size !== contents.length) writeAtomically(path, contents);
}

function pruneChunks(dir, keep) {
  const now = Date.now();
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    try {
      if (!keep.has(p) && now - statSync(p).mtimeMs > OLD_CHUNK_MS) unlinkSync(p);
    } catch {
      // another build pruned it first
    }
  }
}

/**
 * Pure JavaScript packages that every sync engine start loads, inlined into the bundle: read as a few
 * large files rather than hundreds of small ones (zod's ESM tree, undici's CommonJS), they load in
 * about 85 ms less of each start (docs/benchmarks.md, the restart figure). Tests run the sources and
 * their own copy from node_modules, which nothing here shares state with.
 */
const INLINED_PACKAGES = new Set(['zod', 'undici', 'ignore']);

/** Every other package stays outside the bundle, loaded from node_modules at run time. */
const packagesOutside = {
  name: 'packages-outside',
  setup(build) {
    build.onResolve({ filter: /^[^./]/ }, (args) => {
      if (args.path.startsWith('node:')) return { external: true };
      const parts = args.path.split('/');
      const name = args.path.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
      return INLINED_PACKAGES.has(name) ? undefined : { external: true };
    });
  },
};

/**
 * The core's and the contract's modules declare nothing on import but what they export (no module
 * there is imported for its effect alone): told so, esbuild leaves out of a chunk every module whose
 * exports it does not use, even behind a barrel. Without it, an import of one name from
 * src-main/core/index.ts brings the whole app (its sections, every contract schema, the KB client
 * and undici) into the start of a process that syncs one folder.
 */
const PURE_DIRS = ['src-main/core', 'src-shared'];
function pureModules(root) {
  const dirs = PURE_DIRS.map((d) => join(root, d) + '/');
  // Resolved here, not through build.resolve(): a round trip to esbuild per import cost more than the
  // build itself. Relative imports in these folders name a .ts file or a folder's index.ts.
  const fileOf = (base) =>
    [base, `${base}.ts`, `${base}.tsx`, join(base, 'index.ts')].find((p) =>
      statSync(p, { throwIfNoEntry: false })?.isFile(),
    );
  return {
    name: 'pure-modules',
    setup(build) {
      build.onResolve({ filter: /^\./ }, (args) => {
        const base = join(args.resolveDir, args.path);
        if (!dirs.some((d) => base.startsWith(d))) return undefined;
        const path = fileOf(base);
        return path ? { path, sideEffects: false } : undefined;
      });
    },
  };
}

const LOADERS = { '.ts': 'ts', '.mts': 'ts', '.cts': 'ts', '.tsx': 'tsx', '.jsx': 'jsx' };

/**
 * import.meta.url, .dirname and .filename keep the values they have when the sources run: each
 * module's own source path, not the bundle's. So everything a module finds next to itself (the md5
 * worker, the project root, the benchmark's engine) is found where it is in the tree, whoever moves
 * it, with nothing copied into out/cli to go stale.
 */
function sourceLocations() {
  // One buildCliBundle runs several builds over mostly the same files: each is read and rewritten once.
  const rewritten = new Map();
  return {
    name: 'source-locations',
    setup(build) {
      build.onLoad({ filter: /\.[cm]?[jt]sx?$/ }, (args) => {
        let contents = rewritten.get(args.path);
        if (contents === undefined) {
          const text = readFileSync(args.path, 'utf8');
          contents = text.includes('import.meta')
            ? text.replace(/\bimport\.meta\.(url|dirname|filename)\b/g, (_, key) =>
                JSON.stringify(
                  key === 'url'
                    ? pathToFileURL(args.path).href
                    : key === 'dirname'
                      ? dirname(args.path)
                      : args.path,
                ),
              )
            : null;
          rewritten.set(args.path, contents);
        }
        // A file without import.meta is left to esbuild, which reads it faster than it is handed over.
        return contents === null ? undefined : { contents, loader: LOADERS[extname(args.path)] ?? 'js' };
      });
    },
  };
}

/**
 * Runs entry `name` the way bin/assets-sync.mjs runs the CLI: from the bundle, built first when a
 * source is newer; should it fail to build, from the TypeScript source through tsx, with one line on
 * stderr (stdout carries only what the command prints: a ready line may be parsed). ASSETS_SYNC_TSX=1
 * asks for tsx (stack traces with source lines).
 */
export async function runEntry(name, root = ROOT) {
  const source = entryPoints(root)[name];
  if (!source) throw new Error(`no entry point named ${name}`);
  if (await bundleReady(root)) {
    await import(pathToFileURL(join(cliOutDir(root), `${name}.mjs`)).href);
    return;
  }
  const { register } = await import('tsx/esm/api');
  register();
  await import(pathToFileURL(join(root, source)).href);
}

async function bundleReady(root) {
  if (process.env.ASSETS_SYNC_TSX === '1') return false;
  try {
    if (!bundleIsFresh(root)) await buildCliBundle(root);
    return true;
  } catch (error) {
    const reason = (error instanceof Error ? error.message : String(error)).split('\n')[0];
    process.stderr.write(
      `assets-sync: running the sources through tsx (the CLI bundle could not be built: ${reason})\n`,
    );
    return false;
  }
}
