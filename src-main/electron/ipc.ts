import type { IpcMain, IpcMainInvokeEvent, WebFrameMain } from 'electron';
import { isCommandName } from '../../src-shared/contract';
import type { AppError, Result } from '../../src-shared/errors';
import type { AppService } from '../core';
import { APP_ORIGIN } from './app-protocol';
import { IPC } from './ipc-channels';

/** The core as a transport sees it: a name and a request from the page, both checked by the contract. */
export type CoreEndpoint = Pick<AppService, 'dispatch'>;

/** A message is trusted only from the top frame of a page served by the app itself. */
export function isTrustedSender(frame: WebFrameMain | null | undefined): boolean {
  if (!frame || frame.parent) return false;
  // app:// is not a "special" URL scheme, so URL.origin is "null": compare the prefix instead.
  return typeof frame.url === 'string' && frame.url.startsWith(`${APP_ORIGIN}/`);
}

const refused = (message: string): Result<never, AppError> => ({
  ok: false,
  error: { code: 'IPC-REFUSED', message },
});

/**
 * Every invoke is checked for its sender frame, then its command name and request go through the
 * contract (the dispatcher validates the request with zod) before the core sees them.
 */
export function registerIpc(
  ipcMain: IpcMain,
  core: CoreEndpoint,
  pickFolder: (event: IpcMainInvokeEvent) => Promise<string | null>,
): () => void {
  ipcMain.handle(IPC.call, async (event, name: unknown, request: unknown) => {
    if (!isTrustedSender(event.senderFrame)) return refused('This page may not talk to the app.');
    if (!isCommandName(name)) return refused(`There is no command "${String(name).slice(0, 80)}".`);
    return core.dispatch(name, request);
  });
  ipcMain.handle(IPC.pickFolder, async (event) => {
    if (!isTrustedSender(event.senderFrame)) return null;
    return pickFolder(event);
  });
  return () => {
    ipcMain.removeHandler(IPC.call);
    ipcMain.removeHandler(IPC.pickFolder);
  };
}
