import type { BrowserWindowConstructorOptions } from 'electron';

/** Electron's security checklist, in one place: isolated, sandboxed, no Node in the page. */
export function mainWindowOptions(preloadPath: string): BrowserWindowConstructorOptions {
  return {
    width: 1200,
    height: 800,
    minWidth: 720,
    minHeight: 520,
    show: false,
    title: 'Assets Sync',
    backgroundColor: '#f6f6f3',
    autoHideMenuBar: true,
    webPreferences: {
      preload: preloadPath,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      experimentalFeatures: false,
      spellcheck: false,
      navigateOnDragDrop: false,
      // The built-in PDF viewer is a plugin: a PDF's preview (an <embed> the CSP lets read only http(s)).
      plugins: true,
    },
  };
}
