import { createReadStream, statSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { extname, join, normalize, sep } from 'node:path';

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

/**
 * The page's Content-Security-Policy: scripts and styles only from the shell itself, WebSocket only
 * back to it, no frames, no plugins. Images may come from anywhere over http(s) because file
 * previews come from the CDN.
 */
export function contentSecurityPolicy(origin: string): string {
  const ws = origin.replace(/^http/, 'ws');
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data: http: https:",
    "font-src 'self'",
    `connect-src 'self' ${ws}`,
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
    "object-src 'none'",
  ].join('; ');
}

/** Serves the built renderer; unknown paths get index.html (the views route inside the page). */
export function serveStatic(root: string, origin: string, req: IncomingMessage, res: ServerResponse): void {
  const url = new URL(req.url ?? '/', origin);
  let rel: string;
  try {
    rel = normalize(decodeURIComponent(url.pathname)).replace(/^([/\\])+/, '');
  } catch {
    plain(res, 400, 'Malformed path');
    return;
  }
  let file = join(root, rel);
  if (!file.startsWith(root + sep) && file !== root) {
    plain(res, 403, 'Outside the app');
    return;
  }
  let stat = safeStat(file);
  if (!stat?.isFile()) {
    file = join(root, 'index.html');
    stat = safeStat(file);
    if (!stat?.isFile()) {
      plain(res, 503, 'The renderer is not built: run `npm run build`.');
      return;
    }
  }
  const type = TYPES[extname(file)] ?? 'application/octet-stream';
  res.writeHead(200, {
    'Content-Type': type,
    'Content-Length': stat.size,
    'Cache-Control': file.includes(`${sep}assets${sep}`) ? 'public, max-age=31536000, immutable' : 'no-cache',
    'Content-Security-Policy': contentSecurityPolicy(origin),
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'no-referrer',
    'Cross-Origin-Opener-Policy': 'same-origin',
  });
  if (req.method === 'HEAD') {
    res.end();
    return;
  }
  createReadStream(file).pipe(res);
}

function safeStat(file: string) {
  try {
    return statSync(file);
  } catch {
    return null;
  }
}

export function plain(res: ServerResponse, status: number, text: string): void {
  res.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8' });
  res.end(text);
}
