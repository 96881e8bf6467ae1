import type { CoreApi } from '../../src-shared/contract';
import { BRIDGE_GLOBAL, type DesktopBridge } from '../../src-shared/contract/bridge';
import type { AppError, Result } from '../../src-shared/errors';
import { TOKEN_HEADER, UPLOAD_PATH } from '../../src-shared/transport/ws-messages';
import { connectWsCore, type LinkState } from './ws-core';

/**
 * The one place that knows which shell the page runs in. Views see a CoreApi plus two abilities:
 * picking a folder (a native dialog, or null so the view shows a path field) and uploading files
 * dropped on the window.
 */
export interface Platform {
  readonly core: CoreApi;
  readonly kind: 'electron' | 'browser';
  readonly canPickFolder: boolean;
  pickFolder(): Promise<string | null>;
  uploadDropped(files: File[], bucket: string): Promise<Result<{ queued: number }, AppError>>;
}

export function detectPlatform(onLink: (s: LinkState) => void): Platform {
  const bridge = (window as unknown as Record<string, DesktopBridge | undefined>)[BRIDGE_GLOBAL];
  if (bridge) {
    onLink('open');
    return {
      core: bridge,
      kind: 'electron',
      canPickFolder: true,
      pickFolder: () => bridge.pickFolder(),
      uploadDropped: (files, bucket) =>
        bridge.call('files.uploadPaths', {
          paths: files.map((f) => bridge.pathForFile(f)).filter(Boolean),
          bucket,
        }),
    };
  }
  const token = tokenFromLocation();
  const core = connectWsCore(location.origin, token, onLink);
  return {
    core,
    kind: 'browser',
    canPickFolder: false,
    pickFolder: async () => null,
    async uploadDropped(files, bucket) {
      let queued = 0;
      for (const file of files) {
        const url = `${UPLOAD_PATH}?bucket=${encodeURIComponent(bucket)}&name=${encodeURIComponent(file.name)}`;
        try {
          const res = await fetch(url, { method: 'POST', body: file, headers: { [TOKEN_HEADER]: token } });
          const body = (await res.json()) as { queued?: number; code?: string; message?: string };
          if (!res.ok)
            return {
              ok: false,
              error: { code: body.code ?? `HTTP-${res.status}`, message: body.message ?? res.statusText },
            };
          queued += body.queued ?? 0;
        } catch {
          return {
            ok: false,
            error: { code: 'SHELL-DISCONNECTED', message: `${file.name} could not be sent to the app.` },
          };
        }
      }
      return { ok: true, value: { queued } };
    },
  };
}

/** The token arrives in the URL fragment; it is kept for reloads and wiped from the address bar. */
function tokenFromLocation(): string {
  const fromHash = new URLSearchParams(location.hash.slice(1)).get('token');
  if (fromHash) {
    sessionStorage.setItem('assets-sync-token', fromHash);
    history.replaceState(null, '', location.pathname);
    return fromHash;
  }
  return sessionStorage.getItem('assets-sync-token') ?? '';
}
