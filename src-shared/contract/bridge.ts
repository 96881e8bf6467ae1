import type { CoreApi } from './index';

/**
 * What the Electron preload puts on `window.assetsSync`: the contract and two shell services a page
 * cannot do by itself. No raw IPC crosses the bridge. The headless shell offers the same CoreApi over
 * WebSocket, with a path field instead of the dialog and an HTTP upload for dropped files.
 */
export interface DesktopBridge extends CoreApi {
  readonly shell: 'electron';
  /** The native folder dialog; null when cancelled. */
  pickFolder(): Promise<string | null>;
  /** The local path of a File dropped on the window (Electron's webUtils), '' when it has none. */
  pathForFile(file: unknown): string;
}

export const BRIDGE_GLOBAL = 'assetsSync';
