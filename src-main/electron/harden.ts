import type { Session, WebContents } from 'electron';
import { APP_ORIGIN } from './app-protocol';

/** Only http(s) links leave the app, and they go to the system browser. */
export function isExternalLink(url: string): boolean {
  try {
    const u = new URL(url);
    return u.protocol === 'https:' || u.protocol === 'http:';
  } catch {
    return false;
  }
}

/**
 * The page can neither navigate away nor open windows: a CDN link opens in the system browser
 * (http and https only), everything else is refused. No webviews.
 */
export function hardenContents(contents: WebContents, openExternal: (url: string) => Promise<void>): void {
  contents.on('will-navigate', (event, url) => {
    if (!url.startsWith(`${APP_ORIGIN}/`)) event.preventDefault();
  });
  contents.on('will-redirect', (event, url) => {
    if (!url.startsWith(`${APP_ORIGIN}/`)) event.preventDefault();
  });
  contents.on('will-attach-webview', (event) => event.preventDefault());
  contents.setWindowOpenHandler(({ url }) => {
    if (isExternalLink(url)) void openExternal(url);
    return { action: 'deny' };
  });
}

/** The app needs no camera, microphone, geolocation or notifications permission from the page. */
export function denyPermissions(session: Session): void {
  session.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));
  session.setPermissionCheckHandler(() => false);
}
