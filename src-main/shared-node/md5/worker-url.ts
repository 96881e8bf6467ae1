/**
 * Where the md5 worker's file is, for whoever starts one (the engine's hasher, the reference server's
 * upload path). Resolved here, next to the file, so that each bundle (the CLI keeps source paths; the
 * Electron build copies the worker next to main.cjs) finds it the same way.
 */
export function md5WorkerUrl(): URL {
  return new URL('./md5-worker.mjs', import.meta.url);
}
