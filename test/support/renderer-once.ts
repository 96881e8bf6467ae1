import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { buildRenderer } from '../../src-main/shared-node/renderer-build';

declare module 'vitest' {
  export interface ProvidedContext {
    /** One production build of the renderer for the whole run (the browser tests only read it). */
    rendererDir: string;
  }
}

/**
 * Vitest's global set-up: the renderer is built once per run, not once per browser test (a Vite build
 * costs two to three seconds of both cores, and about twenty test files serve it). Tests that need a
 * build of their own (a variant, or one they change) still call buildRenderer with a folder of theirs.
 */
export default async function setup(project: TestProject): Promise<() => void> {
  const root = mkdtempSync(join(tmpdir(), 'assets-renderer-'));
  const dir = join(root, 'renderer');
  await buildRenderer(dir);
  project.provide('rendererDir', dir);
  return () => rmSync(root, { recursive: true, force: true });
}
