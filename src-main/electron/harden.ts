import type { Session, WebContents } from 'electron';
import { APP_ORIGIN } from './app-protocol';

/**
 * Links that leave the app, to the system's handler: http(s) to the browser (CDN links), mailto:
 * and tel: to the mail client and the dialler (a lead's contact). Nothing else (file:, smb:,
 * javascript:, custom schemes that could start programs).
 */
const EXTERNAL_SCHEMES = new Set(['https:', 'http:', 'mailto:', 'tel:']);

export function isExternalLink(url: string): boolean {
  try {
    return EXTERNAL_SCHEMES.has(new URL(url).protocol);
  } catch {
    return false;
  }
}

/**
 * The page can neither navigate away nor open windows: a CDN link opens in the system browser, a
 * lead's mailto:/tel: link in the system's handler (the page opens them with target=_blank, so
 * they come here), everything else is refused. No webviews.
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
