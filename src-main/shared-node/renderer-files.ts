import { extname, join, normalize, sep } from 'node:path';

/**
 * What both shells need to serve the built renderer (Electron's app:// protocol and the headless
 * HTTP server): one MIME table, one CSP and one rule for which paths may be read. Plain Node: the
 * Electron side only wraps it.
 */

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/vnd.microsoft.icon',
  '.woff2': 'font/woff2',
  '.json': 'application/json',
};

export function contentTypeOf(file: string): string {
  return TYPES[extname(file)] ?? 'application/octet-stream';
}

/**
 * The page's Content-Security-Policy: scripts and styles only from the shell itself, connections
 * only back to it (plus `connectTo`, the headless shell's WebSocket origin). The preview of a file
 * reads it from the CDN, so what a preview shows may come from any http(s) address: images, a PDF in
 * the browser's viewer (`object-src`), a video or a sound (`media-src`), and a text or JSON file in a
 * frame the page sandboxes (`frame-src`: no scripts, no forms, an origin of its own). Nothing else:
 * no data:, blob: or file: objects, frames or media, no workers, no fonts or scripts from elsewhere.
 */
export function rendererCsp(connectTo?: string): string {
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data: http: https:",
    'object-src http: https:',
    'media-src http: https:',
    'frame-src http: https:',
    "font-src 'self'",
    connectTo ? `connect-src 'self' ${connectTo}` : "connect-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

export type RendererPath = { ok: true; file: string } | { ok: false; status: 400 | 403; reason: string };

/** The file a URL path names inside `root` (index.html for the root), refused when it escapes `root`. */
export function rendererPath(root: string, pathname: string): RendererPath {
  let rel: string;
  try {
    rel = normalize(decodeURIComponent(pathname)).replace(/^([/\\])+/, '');
  } catch {
    return { ok: false, status: 400, reason: 'Malformed path' };
  }
  const file = join(root, rel);
  if (file === root) return { ok: true, file: join(root, 'index.html') };
  if (!file.startsWith(root + sep)) return { ok: false, status: 403, reason: 'Outside the app' };
  return { ok: true, file };
}
