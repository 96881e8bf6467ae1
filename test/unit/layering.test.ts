import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkLayering, createImportReader, type ImportReader } from '../support/layering-rules';

// The arrows of docs/architecture.md, on the project itself and on a tiny fake project in which each
// case below plants one wrong-way import, to show that every rule can fail.
const root = join(import.meta.dirname, '..', '..');

/** A project with every part and every allowed kind of arrow (the checker must accept it as it is). */
const LAYOUT: Record<string, string> = {
  'src-shared/contract/index.ts': "import { z } from 'zod';\nexport const name = z.string();",
  'src-shared/domain/rules.ts': "import { name } from '../contract';\nexport const rule = name;",
  'src-renderer/App.tsx':
    "import { name } from '../src-shared/contract';\nimport './styles/app.css';\nimport { useState } from 'react';",
  'src-renderer/styles/app.css': 'body {}',
  'src-main/shared-node/sqlite.ts':
    "import Database from 'better-sqlite3';\nimport { readFileSync } from 'node:fs';\nimport { name } from '../../src-shared/contract';",
  'src-main/shared-node/worker-url.ts': "export const url = new URL('./worker.mjs', import.meta.url);",
  'src-main/shared-node/worker.mjs': "import { parentPort } from 'node:worker_threads';",
  'src-main/reference-server/server.ts':
    "import { url } from '../shared-node/worker-url';\nimport type { Thing } from './kb/thing';\nexport const start = 1;",
  'src-main/reference-server/kb/thing.ts': 'export type Thing = 1;',
  'src-main/reference-server/main.ts': "import { start } from './server';",
  'src-main/core/app.ts':
    "import { name } from '../../src-shared/contract';\nimport { url } from '../shared-node/sqlite';\nimport { start } from '../reference-server/server';\nexport const createApp = 1;",
  'src-main/core/sync/engine.ts': "import { createApp } from '../app';\nexport const engine = 1;",
  'src-main/core/index.ts': "export { createApp } from './app';",
  'src-main/core/internal.ts': "export { engine } from './sync/engine';",
  'src-main/electron/main.ts': "import { app } from 'electron';\nimport { createApp } from '../core';",
  'src-main/headless/main.ts': "import { createApp } from '../core/index';\nexport const run = 1;",
  'src-main/launcher/start.ts':
    "import { createRequire } from 'node:module';\nconst require = createRequire(import.meta.url);\nexport const bin = require('electron');\nconst web = await import('../headless/main');",
  'src-main/cli/main.ts':
    "const commands = {\n  start: () => import('../launcher/start'),\n  web: () => import('../headless/main'),\n  server: () => import('../reference-server/main'),\n  relay: () => import('../relay/main'),\n};\nimport { createApp } from '../core';",
  'src-main/cli/commands/sync-option.ts': 'export const option = 1;',
  'tools/main.ts': "const tools = { sync: () => import('./bench/sync') };",
  'tools/bench/sync.ts':
    "import { engine } from '../../src-main/core/internal';\nimport type { createApp } from '../../src-main/core';\nimport { start } from '../../src-main/reference-server/server';\nimport { url } from '../../src-main/shared-node/sqlite';\nimport { option } from '../../src-main/cli/commands/sync-option';\nconst child = require('../../src-main/launcher/start');\nimport { run } from '../../src-main/relay/main';",
  'src-main/relay/main.ts':
    "import { createServer } from 'node:http';\nimport Database from 'better-sqlite3';\nimport { name } from '../../src-shared/contract';\nimport { url } from '../shared-node/sqlite';\nexport const run = 1;",
};

const temps: string[] = [];
afterAll(() => {
  for (const t of temps) rmSync(t, { recursive: true, force: true });
});

function project(planted: Record<string, string> = {}): string {
  const dir = mkdtempSync(join(tmpdir(), 'assets-layering-'));
  temps.push(dir);
  for (const [path, text] of Object.entries({ ...LAYOUT, ...planted })) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

const CYCLE = /import each other/;
const PUBLIC = (part: string) =>
  new RegExp(`${part} reaches the core only through its public API, src-main/core/index\\.ts$`);
const CLOSURE = /the reference server reaches the core by this path/;

/** One wrong-way import each, and every violation it must produce (no more). */
const PLANTS: { name: string; file: string; text: string; expected: RegExp[] }[] = [
  {
    name: 'shared imports a Node module',
    file: 'src-shared/domain/bad.ts',
    text: "import { readFileSync } from 'node:fs';",
    expected: [/^src-shared\/domain\/bad\.ts imports node:fs: src-shared imports nothing from Node$/],
  },
  {
    name: 'shared requires a bare Node builtin',
    file: 'src-shared/domain/bad.ts',
    text: "const fs = require('fs');",
    expected: [/imports fs: src-shared imports nothing from Node/],
  },
  {
    name: 'shared re-exports react',
    file: 'src-shared/domain/bad.ts',
    text: "export { useState } from 'react';",
    expected: [/imports react: src-shared imports no UI or Electron package/],
  },
  {
    name: 'shared imports a type from the core',
    file: 'src-shared/domain/bad.ts',
    text: "import type { createApp } from '../../src-main/core/app';",
    expected: [/src-shared imports no other layer/, CYCLE],
  },
  {
    name: 'the renderer imports a Node module',
    file: 'src-renderer/bad.ts',
    text: "import { join } from 'node:path';",
    expected: [/src-renderer imports nothing from Node/],
  },
  {
    name: 'the renderer imports the core',
    file: 'src-renderer/bad.ts',
    text: "import { createApp } from '../src-main/core/app';",
    expected: [/src-renderer imports only src-shared among the layers/],
  },
  {
    name: 'the core imports electron',
    file: 'src-main/core/bad.ts',
    text: "import { ipcMain } from 'electron';",
    expected: [/imports electron: only src-main\/electron imports electron/],
  },
  {
    name: 'the CLI imports electron/main',
    file: 'src-main/cli/bad.ts',
    text: "import { app } from 'electron/main';",
    expected: [/only src-main\/electron imports electron/],
  },
  {
    name: 'the core imports a module of the Electron shell',
    file: 'src-main/core/bad.ts',
    text: "import '../electron/main';",
    expected: [/nothing imports the Electron shell/, CYCLE],
  },
  {
    name: 'the core loads the CLI lazily',
    file: 'src-main/core/bad.ts',
    text: "const cli = await import('../cli/main');",
    expected: [/the core imports no shell, launcher or CLI/, CYCLE],
  },
  {
    name: 'the core imports the headless shell',
    file: 'src-main/core/bad.ts',
    text: "import { run } from '../headless/main';",
    expected: [/the core imports no shell, launcher or CLI/, CYCLE],
  },
  {
    name: 'the core imports the launcher',
    file: 'src-main/core/bad.ts',
    text: "export * from '../launcher/start';",
    expected: [/the core imports no shell, launcher or CLI/, CYCLE],
  },
  {
    name: 'the core imports a reference server internal (not server.ts)',
    file: 'src-main/core/bad.ts',
    text: "import type { Thing } from '../reference-server/kb/thing';",
    expected: [/the core reaches the reference server only through server\.ts/],
  },
  {
    name: 'shared-node imports the core',
    file: 'src-main/shared-node/bad.ts',
    text: "import { createApp } from '../core/app';",
    expected: [/src-main\/shared-node imports only src-shared/, CYCLE],
  },
  {
    name: 'shared-node imports the reference server',
    file: 'src-main/shared-node/bad.ts',
    text: "import { start } from '../reference-server/server';",
    expected: [/src-main\/shared-node imports only src-shared/, CYCLE],
  },
  {
    name: 'shared-node imports the CLI',
    file: 'src-main/shared-node/bad.ts',
    text: "import '../cli/main';",
    expected: [/src-main\/shared-node imports only src-shared/, CYCLE],
  },
  {
    name: 'the reference server imports the core',
    file: 'src-main/reference-server/bad.ts',
    text: "import { createApp } from '../core/app';",
    expected: [/the reference server imports nothing from the core/, CLOSURE, CYCLE],
  },
  {
    name: 'the reference server reaches the core through the headless shell',
    file: 'src-main/reference-server/bad.ts',
    text: "import { run } from '../headless/main';",
    expected: [
      /^src-main\/reference-server\/bad\.ts -> src-main\/headless\/main\.ts -> src-main\/core\/index\.ts: the reference server reaches the core/,
      CYCLE,
    ],
  },
  {
    name: 'the reference server starts a worker of the core',
    file: 'src-main/reference-server/bad.ts',
    text: "const w = new Worker(new URL('../core/app.ts', import.meta.url));",
    expected: [/the reference server imports nothing from the core/, CLOSURE, CYCLE],
  },
  {
    name: 'headless and launcher import each other',
    file: 'src-main/headless/bad.ts',
    text: "import { bin } from '../launcher/start';",
    expected: [
      /^src-main\/headless and src-main\/launcher import each other \(src-main\/headless\/bad\.ts imports \.\.\/launcher\/start; src-main\/launcher\/start\.ts imports \.\.\/headless\/main\)/,
    ],
  },
  {
    name: 'the headless shell deep-imports the core',
    file: 'src-main/headless/bad.ts',
    text: "import { engine } from '../core/sync/engine';",
    expected: [PUBLIC('src-main/headless')],
  },
  {
    name: 'the launcher deep-imports the core (a type)',
    file: 'src-main/launcher/bad.ts',
    text: "import type { createApp } from '../core/app';",
    expected: [PUBLIC('src-main/launcher')],
  },
  {
    name: 'the Electron shell deep-imports the core lazily',
    file: 'src-main/electron/bad.ts',
    text: "const engine = await import('../core/sync/engine');",
    expected: [PUBLIC('src-main/electron')],
  },
  {
    name: 'a CLI file named soak-* deep-imports the core (no name is exempt)',
    file: 'src-main/cli/commands/soak-thing.ts',
    text: "export { engine } from '../../core/sync/engine';",
    expected: [PUBLIC('src-main/cli')],
  },
  {
    name: 'the CLI imports the internals door of the tools',
    file: 'src-main/cli/commands/bad.ts',
    text: "import { engine } from '../../core/internal';",
    expected: [
      /^src-main\/cli\/commands\/bad\.ts imports \.\.\/\.\.\/core\/internal: only tools\/ import src-main\/core\/internal\.ts/,
    ],
  },
  {
    name: 'a core module imports internal.ts',
    file: 'src-main/core/bad.ts',
    text: "import { engine } from './internal';",
    expected: [/only tools\/ import src-main\/core\/internal\.ts/],
  },
  {
    name: 'a tool deep-imports the core',
    file: 'tools/bench/bad.ts',
    text: "import { engine } from '../../src-main/core/sync/engine';",
    expected: [/tools\/ reach the core only through src-main\/core\/internal\.ts/],
  },
  {
    name: 'a tool imports a reference server internal',
    file: 'tools/bench/bad.ts',
    text: "import type { Thing } from '../../src-main/reference-server/kb/thing';",
    expected: [/tools\/ reach the reference server only through server\.ts/],
  },
  {
    name: 'a tool requires electron',
    file: 'tools/bench/bad.mjs',
    text: "const { app } = require('electron');",
    expected: [/only src-main\/electron imports electron/],
  },
  {
    name: 'the CLI imports a tool',
    file: 'src-main/cli/commands/bad.ts',
    text: "const bench = () => import('../../../tools/bench/sync');",
    expected: [/the product imports nothing from tools\//, CYCLE],
  },
  {
    name: 'the core starts a worker from tools',
    file: 'src-main/core/bad.ts',
    text: "const w = new URL('../../tools/bench/sync.ts', import.meta.url);",
    expected: [/the product imports nothing from tools\//, CYCLE],
  },
  {
    name: 'the relay imports the core',
    file: 'src-main/relay/bad.ts',
    text: "import { createApp } from '../core/app';",
    expected: [/the relay imports only src-shared and src-main\/shared-node/],
  },
  {
    name: 'the relay imports the reference server',
    file: 'src-main/relay/bad.ts',
    text: "import type { start } from '../reference-server/server';",
    expected: [/the relay imports only src-shared and src-main\/shared-node/],
  },
  {
    name: 'the core imports the relay',
    file: 'src-main/core/bad.ts',
    text: "import { run } from '../relay/main';",
    expected: [/only the CLI and tools\/ import the relay/],
  },
  {
    name: 'the headless shell loads the relay lazily',
    file: 'src-main/headless/bad.ts',
    text: "const relay = await import('../relay/main');",
    expected: [/only the CLI and tools\/ import the relay/],
  },
  {
    name: 'a folder of src-main that has no rules',
    file: 'src-main/extra/thing.ts',
    text: 'export const a = 1;',
    expected: [/src-main\/extra is no known part of src-main/],
  },
  {
    name: 'a file at the top of src-main',
    file: 'src-main/loose.ts',
    text: 'export const a = 1;',
    expected: [/belongs to no part/],
  },
];

describe('import layering', () => {
  // One compiler process for every project below (it starts in about half a second).
  let reader: ImportReader;
  beforeAll(() => {
    reader = createImportReader();
  });
  afterAll(() => reader.close());

  it('holds in this project', () => {
    expect(checkLayering(root, reader)).toEqual([]);
  });

  it('accepts the fake project before anything is planted', () => {
    expect(checkLayering(project(), reader)).toEqual([]);
  });

  it.each(PLANTS)('rejects a planted import: $name', ({ file, text, expected }) => {
    const found = checkLayering(project({ [file]: text }), reader);
    expect(found).toHaveLength(expected.length);
    for (const re of expected)
      expect(
        found.some((v) => re.test(v)),
        `${re} in ${found.join('\n')}`,
      ).toBe(true);
  });
});
