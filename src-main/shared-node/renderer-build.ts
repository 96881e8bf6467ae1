import { join } from 'node:path';
import { PROJECT_ROOT } from './project-paths';

// Here, not in the launcher: both `npm start` (launcher) and `assets-sync web` (headless) build the UI
// on first use, and the headless shell must not import the launcher that may start it.

/**
 * `vite build` of the renderer into out/renderer (or `outDir`: tests build their own copy, side by side).
 * `renderCounts` (a test build only): React's profiling build with `__RENDER_COUNTS__` on, so the big
 * lists count their commits into `window.__renderCounts` (src-renderer/lib/render-count.tsx); the
 * app's own build leaves both out.
 */
export async function buildRenderer(outDir?: string, opts: { renderCounts?: boolean } = {}): Promise<void> {
  const vite = await import('vite');
  // Under a test runner NODE_ENV is 'test', which makes both the JSX transform and React development builds.
  const previous = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  try {
    await vite.build({
      configFile: join(PROJECT_ROOT, 'vite.config.ts'),
      logLevel: 'warn',
      mode: 'production',
      ...(outDir ? { build: { outDir, emptyOutDir: true } } : {}),
      ...(opts.renderCounts
        ? {
            define: { __RENDER_COUNTS__: 'true' },
            // React's production build never calls a Profiler's onRender; its profiling build does.
            resolve: { alias: [{ find: /^react-dom\/client$/, replacement: 'react-dom/profiling' }] },
          }
        : {}),
    });
  } finally {
    if (previous === undefined) delete process.env.NODE_ENV;
    else process.env.NODE_ENV = previous;
  }
}
