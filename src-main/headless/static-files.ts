import { createReadStream, statSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join, sep } from 'node:path';
import { contentTypeOf, rendererCsp, rendererPath } from '../shared-node/renderer-files';

/** Serves the built renderer; unknown paths get index.html (the views route inside the page). */
export function serveStatic(
  root: string,
  origin: string,
  url: URL,
  req: IncomingMessage,
  res: ServerResponse,
): void {
  const path = rendererPath(root, url.pathname);
  if (!path.ok) {
    plain(res, path.status, path.reason);
    return;
  }
  let file = path.file;
  let stat = safeStat(file);
  if (!stat?.isFile()) {
    file = join(root, 'index.html');
    stat = safeStat(file);
    if (!stat?.isFile()) {
      plain(res, 503, 'The renderer is not built: run `npm run build`.');
      return;
    }
  }
  res.writeHead(200, {
    'Content-Type': contentTypeOf(file),
    'Content-Length': stat.size,
    'Cache-Control': file.includes(`${sep}assets${sep}`) ? 'public, max-age=31536000, immutable' : 'no-cache',
    'Content-Security-Policy': rendererCsp(origin.replace(/^http/, 'ws')),
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
