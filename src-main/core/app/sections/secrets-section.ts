import { ok } from '../../../../src-shared/errors';
import type { SwitchableSecrets } from '../../secrets/secret-stores';
import type { AppContext } from '../context';
import type { Section } from '../section';

/** Where secrets are kept: the keychain, or an encrypted file chosen and unlocked by the person. */
export function secretsSection(ctx: AppContext, secrets: SwitchableSecrets): Section {
  const changed = <T>(r: T) => {
    ctx.bus.emit('secrets.changed', secrets.status());
    return r;
  };
  return {
    name: 'secrets',
    handlers: {
      'secrets.status': async () => ok(secrets.status()),
      'secrets.useEncryptedFile': async (r) => changed(secrets.useEncryptedFile(r.passphrase)),
      'secrets.unlock': async (r) => changed(secrets.unlock(r.passphrase)),
    },
  };
}
