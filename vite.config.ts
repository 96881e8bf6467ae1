import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// The renderer is a static bundle: the headless shell serves it over HTTP, Electron from its
// app:// protocol. Relative asset paths make both work from the same build.
export default defineConfig({
  root: 'src-renderer',
  base: './',
  plugins: [react()],
  // On only in a test build (buildRenderer's renderCounts): the render counter is dead code here.
  define: { __RENDER_COUNTS__: 'false' },
  build: {
    outDir: '../out/renderer',
    emptyOutDir: true,
    target: 'chrome120',
    sourcemap: false,
    reportCompressedSize: false,
  },
});
