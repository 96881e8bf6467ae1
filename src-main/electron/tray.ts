import { join } from 'node:path';
import { Menu, nativeImage, Tray } from 'electron';
import type { OfficeStatus, SyncOverview } from '../../src-shared/contract';
import type { KbBotView } from '../../src-shared/contract/kb';
import { type TrayLeads, type TrayState, trayView } from './tray-state';

/** The tray icon: idle / syncing / paused / error / offline, with open, pause or resume, and quit. */
export function createTray(o: {
  iconDir: string;
  open(): void;
  toggle(pause: boolean): void;
  quit(): void;
  /** The upload limit presets (core/app/bandwidth-settings.ts trayPresets) and choosing one. */
  presets?(): { label: string; bwlimit: string; checked: boolean }[];
  setLimit?(bwlimit: string): void;
}) {
  const icons = new Map<TrayState, Electron.NativeImage>();
  const icon = (s: TrayState) => {
    let img = icons.get(s);
    if (!img) {
      img = nativeImage.createFromPath(join(o.iconDir, `tray-${s}.png`));
      icons.set(s, img);
    }
    return img;
  };
  const tray = new Tray(icon('idle'));
  const update = (
    overview: SyncOverview | null,
    office: OfficeStatus | null = null,
    bots: readonly KbBotView[] = [],
    leads: TrayLeads = {},
  ) => {
    const v = trayView(overview, office, bots, leads);
    tray.setImage(icon(v.state));
    tray.setToolTip(v.tooltip);
    tray.setContextMenu(
      Menu.buildFromTemplate([
        { label: 'Open Assets Sync', click: o.open },
        { label: v.toggle, click: () => o.toggle(v.toggle === 'Pause syncing') },
        ...(v.limit ? [{ label: v.limit, enabled: false }] : []),
        ...(v.office ? [{ label: v.office, enabled: false }] : []),
        ...(o.presets && o.setLimit
          ? [
              {
                label: 'Upload limit',
                submenu: o.presets().map((p) => ({
                  label: p.label,
                  type: 'radio' as const,
                  checked: p.checked,
                  click: () => o.setLimit?.(p.bwlimit),
                })),
              },
            ]
          : []),
        { type: 'separator' },
        { label: 'Quit', click: o.quit },
      ]),
    );
  };
  tray.on('click', o.open);
  update(null);
  return { update, destroy: () => tray.destroy() };
}
