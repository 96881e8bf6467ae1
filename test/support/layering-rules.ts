import { existsSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, relative, sep } from 'node:path';
import {
  isCallExpression,
  isIdentifier,
  isMetaProperty,
  isNewExpression,
  isPropertyAccessExpression,
  isStringLiteral,
  type Node,
} from 'typescript/unstable/ast';
import { API } from 'typescript/unstable/sync';

// The arrows of docs/architecture.md, checked on every source file under a project root: a pure
// function of the tree, so that a test can plant a wrong-way import in a temp copy and see it rejected.
// The imports are read by the TypeScript compiler (its parser's list of a file's module references),
// not by a pattern over the text: type-only imports count (a type from the core in the reference
// server is still an arrow), and so do dynamic imports, re-exports, require() and worker URLs
// (`new URL('./x', import.meta.url)`), the last two found on the compiler's syntax tree.

/** Every folder of src-main. A folder that is not here is a violation: each part has its rules. */
export const MAIN_PARTS = [
  'core',
  'reference-server',
  'electron',
  'headless',
  'launcher',
  'shared-node',
  'cli',
  'relay',
] as const;

/** The folders whose files are checked: the product's three layers, and the harnesses apart from it. */
const LAYERS = ['src-shared', 'src-renderer', 'src-main', 'tools'];
const SOURCE = /\.(ts|tsx|mts|cts|js|mjs|cjs)$/;
const RESOLVE_SUFFIXES = ['', '.ts', '.tsx', '.mts', '.mjs', '.js', '/index.ts', '/index.tsx'];
const BUILTINS = new Set(builtinModules.flatMap((m) => [m, m.split('/')[0]!]));

/** An import of one file: its specifier, and for a relative one the root-relative path it resolves to. */
export interface Edge {
  from: string;
  spec: string;
  to: string | null;
}

/**
 * The compiler, started once (tsgo, through TypeScript 7's API) for any number of projects: a test
 * that checks thirty planted projects pays its start once. `close()` ends its process.
 */
export interface ImportReader {
  /** Each file's module specifiers, in the order the compiler lists them. */
  specifiers(files: string[]): Map<string, string[]>;
  close(): void;
}

export function createImportReader(): ImportReader {
  const api = new API({ cwd: tmpdir() });
  return {
    specifiers(files) {
      // A project of exactly these files, parsed and not resolved: what a file imports is syntax.
      const dir = mkdtempSync(join(tmpdir(), 'assets-imports-'));
      try {
        const config = join(dir, 'tsconfig.json');
        writeFileSync(
          config,
          JSON.stringify({
            compilerOptions: { allowJs: true, noResolve: true, noLib: true, types: [], jsx: 'preserve' },
            files,
          }),
        );
        const snapshot = api.updateSnapshot({ openProject: config });
        const program = snapshot.getProject(config)?.program;
        if (!program) throw new Error('the compiler opened no project for the layering check');
        const out = new Map<string, string[]>();
        for (const file of files) {
          const sf = program.getSourceFile(file);
          if (!sf) throw new Error(`the compiler did not read ${file}`);
          const specs = sf.imports.map((n) => (n as Node & { text: string }).text);
          sf.forEachChild(function visit(n: Node): undefined {
            const spec = requiredOrWorker(n);
            if (spec !== null) specs.push(spec);
            n.forEachChild(visit);
          });
          out.set(file, [...new Set(specs)]);
        }
        snapshot.dispose();
        return out;
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
    close: () => api.close(),
  };
}

/**
 * `require('x')` in a TypeScript file (the compiler lists it only for JavaScript), and a worker's
 * `new URL('./x', import.meta.url)`: the specifier, or null for any other node.
 */
function requiredOrWorker(n: Node): string | null {
  if (isCallExpression(n) && isIdentifier(n.expression) && n.expression.text === 'require') {
    const [arg] = n.arguments;
    return n.arguments.length === 1 && arg && isStringLiteral(arg) ? arg.text : null;
  }
  if (isNewExpression(n) && isIdentifier(n.expression) && n.expression.text === 'URL') {
    const [what, base] = n.arguments ?? [];
    if (
      what &&
      base &&
      isStringLiteral(what) &&
      what.text.startsWith('.') &&
      isPropertyAccessExpression(base)
    )
      return isMetaProperty(base.expression) && base.name.text === 'url' ? what.text : null;
  }
  return null;
}

/** Root-relative paths (with `/`) of every source file of the layers, and their imports. */
export function readImports(root: string, reader: ImportReader): Edge[] {
  const files = LAYERS.flatMap((layer) => sourcesUnder(join(root, layer)));
  const edges: Edge[] = [];
  for (const [abs, specs] of reader.specifiers(files)) {
    const from = rel(root, abs);
    for (const spec of specs)
      edges.push({ from, spec, to: spec.startsWith('.') ? resolveRelative(root, abs, spec) : null });
  }
  return edges;
}

/** The layer a root-relative path belongs to: `src-shared`, `src-renderer`, `tools`, `src-main/<folder>`, or null. */
export function layerOf(path: string): string | null {
  const [top, part] = path.split('/');
  if (top === 'src-shared' || top === 'src-renderer' || top === 'tools') return top;
  if (top === 'src-main') return part && path.split('/').length > 2 ? `src-main/${part}` : 'src-main';
  return null;
}

const isBuiltin = (spec: string) => spec.startsWith('node:') || BUILTINS.has(spec.split('/')[0]!);
const isPackage = (spec: string, name: string) => spec === name || spec.startsWith(`${name}/`);
const isElectron = (spec: string) => isPackage(spec, 'electron');
const within = (path: string | null, folder: string) => path !== null && `${path}/`.startsWith(`${folder}/`);

const CORE_INDEX = 'src-main/core/index.ts';
const CORE_INTERNAL = 'src-main/core/internal.ts';
/** The parts of src-main that drive the core from outside: each holds to its public API. */
const SHELLS = new Set(['src-main/cli', 'src-main/electron', 'src-main/headless', 'src-main/launcher']);

/** One rule per sentence of docs/architecture.md "The arrows". Returns null when the edge is fine. */
function directRule(e: Edge): string | null {
  const from = layerOf(e.from);
  const to = e.to === null ? null : layerOf(e.to);
  const leaves = e.to !== null && to !== from;

  // The launcher requires the electron package only for the path of the binary it spawns, never its API.
  if (isElectron(e.spec) && from !== 'src-main/electron' && from !== 'src-main/launcher')
    return 'only src-main/electron imports electron';
  if (leaves && to === 'src-main/electron') return 'nothing imports the Electron shell: it is an entry point';
  if (leaves && to === 'tools')
    return 'the product imports nothing from tools/: the harnesses measure it from outside';
  if (e.to === CORE_INTERNAL && from !== 'tools')
    return 'only tools/ import src-main/core/internal.ts; the shells and the CLI use index.ts';
  if (to === 'src-main/core' && from !== null && SHELLS.has(from) && e.to !== CORE_INDEX)
    return `${from} reaches the core only through its public API, src-main/core/index.ts`;
  // The relay is its own program for a box that stays up: the CLI starts it, its benchmark (tools/) measures it.
  if (leaves && to === 'src-main/relay' && from !== 'src-main/cli' && from !== 'tools')
    return 'only the CLI and tools/ import the relay: it is a program of its own';

  switch (from) {
    case 'src-shared':
      if (isBuiltin(e.spec)) return 'src-shared imports nothing from Node';
      if (['react', 'react-dom', 'electron'].some((p) => isPackage(e.spec, p)))
        return 'src-shared imports no UI or Electron package';
      if (leaves) return 'src-shared imports no other layer';
      return null;
    case 'src-renderer':
      if (isBuiltin(e.spec)) return 'src-renderer imports nothing from Node';
      if (leaves && to !== 'src-shared') return 'src-renderer imports only src-shared among the layers';
      return null;
    case 'src-main/core':
      if (to === 'src-main/headless' || to === 'src-main/launcher' || to === 'src-main/cli')
        return 'the core imports no shell, launcher or CLI: they import it';
      if (to === 'src-main/reference-server' && e.to !== 'src-main/reference-server/server.ts')
        return 'the core reaches the reference server only through server.ts (to start the sandbox)';
      return null;
    case 'src-main/shared-node':
      if (leaves && to !== 'src-shared')
        return 'src-main/shared-node imports only src-shared: every part uses it';
      return null;
    case 'src-main/relay':
      // Not the core's engine, keychain or app: only the wire formats (src-shared) and shared Node helpers.
      if (leaves && to !== 'src-shared' && to !== 'src-main/shared-node')
        return 'the relay imports only src-shared and src-main/shared-node among the layers';
      return null;
    case 'src-main/reference-server':
      if (to === 'src-main/core') return 'the reference server imports nothing from the core';
      return null;
    case 'tools':
      if (to === 'src-main/core' && e.to !== CORE_INDEX && e.to !== CORE_INTERNAL)
        return 'tools/ reach the core only through src-main/core/internal.ts (or the public index.ts)';
      if (to === 'src-main/reference-server' && e.to !== 'src-main/reference-server/server.ts')
        return 'tools/ reach the reference server only through server.ts (to start one)';
      return null;
    default:
      return null;
  }
}

/** Every violation under `root`, one line each, `file imports spec: rule`. Empty when the arrows hold. */
export function checkLayering(root: string, reader?: ImportReader): string[] {
  const own = reader ? null : createImportReader();
  let edges: Edge[];
  try {
    edges = readImports(root, reader ?? own!);
  } finally {
    own?.close();
  }
  const bad: string[] = [];

  for (const file of sourcesUnder(join(root, 'src-main')).map((f) => rel(root, f))) {
    const layer = layerOf(file)!;
    if (layer === 'src-main')
      bad.push(`${file}: a file at the top of src-main belongs to no part; move it into one`);
    else if (!MAIN_PARTS.some((p) => layer === `src-main/${p}`))
      bad.push(`${file}: ${layer} is no known part of src-main; give it its rules in layering-rules.ts`);
  }

  for (const e of edges) {
    const why = directRule(e);
    if (why) bad.push(`${e.from} imports ${e.spec}: ${why}`);
  }

  bad.push(...referenceServerReachesCore(edges), ...partCycles(edges));
  return [...new Set(bad)];
}

/**
 * The reference server must run without the core by any path, not only by direct import: follow every
 * relative import from its files (through shared-node, src-shared, anything) and report the first path
 * that ends in src-main/core.
 */
function referenceServerReachesCore(edges: Edge[]): string[] {
  const next = new Map<string, string[]>();
  for (const e of edges) if (e.to) next.set(e.from, [...(next.get(e.from) ?? []), e.to]);
  const parent = new Map<string, string | null>();
  const queue = [...new Set(edges.map((e) => e.from))].filter((f) => within(f, 'src-main/reference-server'));
  for (const f of queue) parent.set(f, null);
  for (let i = 0; i < queue.length; i++) {
    const f = queue[i]!;
    if (within(f, 'src-main/core')) {
      const chain: string[] = [];
      for (let at: string | null = f; at !== null; at = parent.get(at) ?? null) chain.unshift(at);
      return [`${chain.join(' -> ')}: the reference server reaches the core by this path`];
    }
    for (const t of next.get(f) ?? []) {
      if (parent.has(t)) continue;
      parent.set(t, f);
      queue.push(t);
    }
  }
  return [];
}

/** Parts that import each other, directly or round a longer loop (Tarjan's strongly connected components). */
function partCycles(edges: Edge[]): string[] {
  const example = new Map<string, Edge>();
  const next = new Map<string, Set<string>>();
  for (const e of edges) {
    const a = layerOf(e.from);
    const b = e.to === null ? null : layerOf(e.to);
    if (!a || !b || a === b) continue;
    if (!next.has(a)) next.set(a, new Set());
    next.get(a)!.add(b);
    if (!example.has(`${a}>${b}`)) example.set(`${a}>${b}`, e);
  }
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const out: string[] = [];
  const visit = (v: string) => {
    index.set(v, index.size);
    low.set(v, index.get(v)!);
    stack.push(v);
    for (const w of next.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (stack.includes(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const scc: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      scc.push(w);
    } while (w !== v);
    if (scc.length < 2) return;
    const inside = [...example.entries()]
      .filter(([k]) => scc.includes(k.split('>')[0]!) && scc.includes(k.split('>')[1]!))
      .map(([, e]) => `${e.from} imports ${e.spec}`)
      .sort();
    out.push(`${scc.sort().join(' and ')} import each other (${inside.join('; ')}): one of them must not`);
  };
  for (const v of [...next.keys()].sort()) if (!index.has(v)) visit(v);
  return out;
}

function sourcesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules') continue;
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...sourcesUnder(p));
    else if (SOURCE.test(name)) out.push(p);
  }
  return out;
}

/** The file a relative specifier names, or its bare path when no file matches (a rule still sees where it points). */
function resolveRelative(root: string, fromAbs: string, spec: string): string {
  const base = join(dirname(fromAbs), spec);
  const candidates = RESOLVE_SUFFIXES.map((s) => base + s);
  if (/\.js$/.test(spec)) candidates.push(base.replace(/\.js$/, '.ts'), base.replace(/\.js$/, '.tsx'));
  const hit = candidates.find((c) => existsSync(c) && statSync(c).isFile());
  return rel(root, hit ?? base);
}

const rel = (root: string, abs: string) => relative(root, abs).split(sep).join('/');
