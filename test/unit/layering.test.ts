import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

// Reads every import of every source file and checks the arrows of docs/architecture.md:
// renderer -> shared <- main, and only src-main/electron imports electron.
const root = join(import.meta.dirname, '..', '..');

function sources(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...sources(p));
    else if (/\.(ts|tsx|mts|cts|js|mjs)$/.test(name)) out.push(p);
  }
  return out;
}

function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const specs: string[] = [];
  const re =
    /(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|import\s*\(\s*['"]([^'"]+)['"]\s*\)|require\(\s*['"]([^'"]+)['"]\s*\)|^\s*import\s*['"]([^'"]+)['"]/gm;
  for (const m of text.matchAll(re)) specs.push((m[1] ?? m[2] ?? m[3] ?? m[4])!);
  return specs;
}

const NODE_BUILTINS =
  /^(node:|fs$|path$|os$|crypto$|child_process$|http$|https$|net$|stream$|worker_threads$|url$|events$|util$)/;

function violations(layer: string, forbidden: (spec: string, file: string) => boolean): string[] {
  const dir = join(root, layer);
  let files: string[];
  try {
    files = sources(dir);
  } catch {
    return [];
  }
  const bad: string[] = [];
  for (const f of files) {
    for (const spec of importsOf(f)) if (forbidden(spec, f)) bad.push(`${relative(root, f)} imports ${spec}`);
  }
  return bad;
}

const resolvesInto = (spec: string, file: string, target: string) =>
  spec.startsWith('.') && join(file, '..', spec).startsWith(join(root, target));

describe('import layering', () => {
  it('src-shared imports nothing from Node, the DOM libraries, Electron or other layers', () => {
    expect(
      violations(
        'src-shared',
        (s, f) =>
          NODE_BUILTINS.test(s) ||
          /^(electron|react|react-dom)$/.test(s) ||
          resolvesInto(s, f, 'src-main') ||
          resolvesInto(s, f, 'src-renderer'),
      ),
    ).toEqual([]);
  });

  it('src-renderer imports only src-shared among the layers, and no Node or Electron', () => {
    expect(
      violations(
        'src-renderer',
        (s, f) => NODE_BUILTINS.test(s) || s === 'electron' || resolvesInto(s, f, 'src-main'),
      ),
    ).toEqual([]);
  });

  it('only src-main/electron imports electron', () => {
    for (const layer of [
      'src-main/core',
      'src-main/reference-server',
      'src-main/cli',
      'src-shared',
      'src-renderer',
    ]) {
      expect(
        violations(
          layer,
          (s, f) => s === 'electron' || s.startsWith('electron/') || resolvesInto(s, f, 'src-main/electron'),
        ),
      ).toEqual([]);
    }
  });

  it('the reference server imports nothing from the core: the core talks to it over HTTP only', () => {
    expect(violations('src-main/reference-server', (s, f) => resolvesInto(s, f, 'src-main/core'))).toEqual(
      [],
    );
  });

  it('the core reaches the reference server only through server.ts (to start the sandbox)', () => {
    expect(
      violations(
        'src-main/core',
        (s, f) =>
          resolvesInto(s, f, 'src-main/reference-server') &&
          !join(f, '..', s).endsWith('reference-server/server'),
      ),
    ).toEqual([]);
  });

  it('catches a violation (the checker itself can fail)', () => {
    const spec = importsOf(join(root, 'test', 'unit', 'layering.test.ts'));
    expect(spec).toContain('node:fs');
  });
});
