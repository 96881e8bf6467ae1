import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join, relative, sep } from 'node:path';

// The arrows of docs/architecture.md, checked from the text of every source file under a project
// root: a pure function of the tree, so that a test can plant a wrong-way import in a temp copy and see
// it rejected. Type-only imports count (a type from the core in the reference server is still an arrow).

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

const SOURCE = /\.(ts|tsx|mts|cts|js|mjs|cjs)$/;
const RESOLVE_SUFFIXES = ['', '.ts', '.tsx', '.mts', '.mjs', '.js', '/index.ts', '/index.tsx'];
const BUILTINS = new Set(builtinModules.flatMap((m) => [m, m.split('/')[0]!]));

/** An import of one file: its specifier, and for a relative one the root-relative path it resolves to. */
export interface Edge {
  from: string;
  spec: string;
  to: string | null;
}

/** Root-relative paths (with `/`) of every source file of the layers, and their imports. */
export function readImports(root: string): Edge[] {
  const edges: Edge[] = [];
  for (const layer of ['src-shared', 'src-renderer', 'src-main']) {
    for (const abs of sourcesUnder(join(root, layer))) {
      const from = rel(root, abs);
      for (const spec of specifiersOf(readFileSync(abs, 'utf8'))) {
        edges.push({ from, spec, to: spec.startsWith('.') ? resolveRelative(root, abs, spec) : null });
      }
    }
  }
  return edges;
}

/** The import specifiers of a source text: static, re-export, side-effect, dynamic, require, worker URL. */
export function specifiersOf(text: string): string[] {
  const re =
    /^\s*(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|import\s*\(\s*['"]([^'"]+)['"]\s*\)|require\(\s*['"]([^'"]+)['"]\s*\)|^\s*import\s*['"]([^'"]+)['"]|new\s+URL\(\s*['"](\.[^'"]+)['"]\s*,\s*import\.meta\.url/gm;
  return [...text.matchAll(re)].map((m) => (m[1] ?? m[2] ?? m[3] ?? m[4] ?? m[5])!);
}

/** The layer a root-relative path belongs to: `src-shared`, `src-renderer`, `src-main/<folder>`, or null. */
export function layerOf(path: string): string | null {
  const [top, part] = path.split('/');
  if (top === 'src-shared' || top === 'src-renderer') return top;
  if (top === 'src-main') return part && path.split('/').length > 2 ? `src-main/${part}` : 'src-main';
  return null;
}

const isBuiltin = (spec: string) => spec.startsWith('node:') || BUILTINS.has(spec.split('/')[0]!);
const isPackage = (spec: string, name: string) => spec === name || spec.startsWith(`${name}/`);
const isElectron = (spec: string) => isPackage(spec, 'electron');
const within = (path: string | null, folder: string) => path !== null && `${path}/`.startsWith(`${folder}/`);

/** One rule per sentence of docs/architecture.md "The arrows". Returns null when the edge is fine. */
function directRule(e: Edge): string | null {
  const from = layerOf(e.from);
  const to = e.to === null ? null : layerOf(e.to);
  const leaves = e.to !== null && to !== from;

  // The launcher requires the electron package only for the path of the binary it spawns, never its API.
  if (isElectron(e.spec) && from !== 'src-main/electron' && from !== 'src-main/launcher')
    return 'only src-main/electron imports electron';
  if (leaves && to === 'src-main/electron') return 'nothing imports the Electron shell: it is an entry point';
  // The relay is its own program for a box that stays up: the CLI starts it (and its benchmark measures it).
  if (leaves && to === 'src-main/relay' && from !== 'src-main/cli')
    return 'only the CLI imports the relay: it is a program of its own';

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
    default:
      return null;
  }
}

/** Every violation under `root`, one line each, `file imports spec: rule`. Empty when the arrows hold. */
export function checkLayering(root: string): string[] {
  const edges = readImports(root);
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
