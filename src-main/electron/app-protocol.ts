import { readFile } from 'node:fs/promises';
import { extname, join, normalize, sep } from 'node:path';

/** The renderer is served from app://renderer/, never from file:// or the network. */
export const APP_SCHEME = 'app';
export const APP_ORIGIN = `${APP_SCHEME}://renderer`;

export const CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data: http: https:",
  "font-src 'self'",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
  "object-src 'none'",
].join('; ');

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
};

/** Answers one app:// request from the built renderer, with the CSP on every reply. */
export async function serveAppRequest(rendererDir: string, url: string): Promise<Response> {
  const u = new URL(url);
  if (u.host !== 'renderer') return new Response('Not found', { status: 404 });
  const rel = normalize(decodeURIComponent(u.pathname)).replace(/^([/\\])+/, '') || 'index.html';
  const file = join(rendererDir, rel);
  if (!file.startsWith(rendererDir + sep)) return new Response('Forbidden', { status: 403 });
  try {
    const body = await readFile(file);
    return new Response(body, {
      headers: {
        'Content-Type': TYPES[extname(file)] ?? 'application/octet-stream',
        'Content-Security-Policy': CSP,
        'X-Content-Type-Options': 'nosniff',
      },
    });
  } catch {
    return new Response('Not found', { status: 404 });
  }
}
