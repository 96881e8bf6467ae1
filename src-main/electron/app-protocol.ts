import { readFile } from 'node:fs/promises';
import { contentTypeOf, rendererCsp, rendererPath } from '../shared-node/renderer-files';

/** The renderer is served from app://renderer/, never from file:// or the network. */
export const APP_SCHEME = 'app';
export const APP_ORIGIN = `${APP_SCHEME}://renderer`;

export const CSP = rendererCsp();

/** Answers one app:// request from the built renderer, with the CSP on every reply. */
export async function serveAppRequest(rendererDir: string, url: string): Promise<Response> {
  const u = new URL(url);
  if (u.host !== 'renderer') return new Response('Not found', { status: 404 });
  const path = rendererPath(rendererDir, u.pathname);
  if (!path.ok) return new Response(path.reason, { status: path.status });
  try {
    const body = await readFile(path.file);
    return new Response(body, {
      headers: {
        'Content-Type': contentTypeOf(path.file),
        'Content-Security-Policy': CSP,
        'X-Content-Type-Options': 'nosniff',
      },
    });
  } catch {
    return new Response('Not found', { status: 404 });
  }
}
