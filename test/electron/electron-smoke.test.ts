import { _electron } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { buildElectron } from '../../src-main/launcher/build';
import { electronBinary } from '../../src-main/launcher/start';
import { PROJECT_ROOT } from '../../src-main/shared-node/project-paths';
import { buildRenderer } from '../../src-main/shared-node/renderer-build';

// Runs where an Electron binary is installed; elsewhere (here: the binary cannot be downloaded)
// vitest reports it as skipped, by name.
const bin = electronBinary();

describe.skipIf(!bin)('Electron smoke (needs the Electron binary)', () => {
  it('opens the window from app://renderer with the bridge and no Node in the page', async () => {
    await buildRenderer();
    await buildElectron();
    const app = await _electron.launch({ executablePath: bin!, args: [PROJECT_ROOT] });
    try {
      const win = await app.firstWindow();
      await win.getByRole('heading').first().waitFor();
      expect(win.url()).toMatch(/^app:\/\/renderer\//);
      expect(await win.evaluate(() => typeof (window as unknown as { require?: unknown }).require)).toBe(
        'undefined',
      );
      expect(
        await win.evaluate(() => typeof (window as unknown as { assetsSync?: unknown }).assetsSync),
      ).toBe('object');
    } finally {
      await app.close();
    }
  });
});
