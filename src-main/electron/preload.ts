import { contextBridge, ipcRenderer, webUtils } from 'electron';
import type { AnyEvent } from '../../src-shared/contract';
import type { DesktopBridge } from '../../src-shared/contract/bridge';
import { IPC } from './ipc-channels';

// The page gets this object and nothing else: no ipcRenderer, no Node. Each function takes plain
// data and the main process checks it again.
const listeners = new Set<(e: AnyEvent) => void>();
ipcRenderer.on(IPC.event, (_event, message: AnyEvent) => {
  for (const l of listeners) l(message);
});

const bridge: DesktopBridge = {
  shell: 'electron',
  call: (name, request) => ipcRenderer.invoke(IPC.call, name, request),
  subscribe(listener) {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
  pickFolder: () => ipcRenderer.invoke(IPC.pickFolder),
  pathForFile: (file) => {
    try {
      return webUtils.getPathForFile(file as File);
    } catch {
      return '';
    }
  },
};

contextBridge.exposeInMainWorld('assetsSync', bridge);
