import { appError, err, ok } from '../../../../src-shared/errors';
import { joinAsDesk } from '../../office/desk-of';
import type { OfficeHandle } from '../../office/join';
import {
  newJoinCode,
  OFFICE_KEY_ACCOUNT,
  OFFICE_KEY_ENV,
  publicOfficeSettings,
  readOfficeSettings,
  writeOfficeSettings,
} from '../../office/office-settings';
import type { AppContext } from '../context';
import type { Section } from '../section';

/**
 * The office (docs/office.md) in the app: this app is a desk from its start (joined before the first service
 * client is made, so that client's budget is the office's), `office.changed` at most once a second while
 * anything in it changes, and the Settings view's office commands. A change of settings takes effect at the
 * next start of the app, as the switch says (a desk leaves or joins with its budget).
 */
export function officeSection(ctx: AppContext): Section & { handle: OfficeHandle } {
  const handle: OfficeHandle = joinAsDesk({
    dataDir: ctx.dataDir,
    settings: ctx.serviceSettings,
    secrets: ctx.secrets,
    program: 'app',
    log: ctx.log,
    onChange: (s) => ctx.bus.emit('office.changed', s),
  });
  return {
    handle,
    name: 'office',
    handlers: {
      'office.status': async () => ok(handle.status()),
      'office.settings': async () =>
        ok(publicOfficeSettings(readOfficeSettings(ctx.serviceSettings, ctx.secrets))),
      'office.update': async (patch) => {
        let written: ReturnType<typeof writeOfficeSettings>;
        try {
          written = writeOfficeSettings(ctx.serviceSettings, ctx.secrets, patch);
        } catch (e) {
          return err(appError('KEYCHAIN-UNAVAILABLE', (e as Error).message));
        }
        if (!written.ok) return err(appError('OFFICE-PEER', written.message));
        return ok(publicOfficeSettings(readOfficeSettings(ctx.serviceSettings, ctx.secrets)));
      },
      'office.joinCode': async ({ make }) => {
        const fromEnv = Boolean(process.env[OFFICE_KEY_ENV]?.trim());
        try {
          if (make && !fromEnv) ctx.secrets.set(OFFICE_KEY_ACCOUNT, newJoinCode());
          return ok({ code: readOfficeSettings(ctx.serviceSettings, ctx.secrets).key, fromEnv });
        } catch (e) {
          return err(appError('KEYCHAIN-UNAVAILABLE', (e as Error).message));
        }
      },
    },
    close: () => handle.close(),
  };
}
