import { EXIT, parseCommand, withSession } from '../common';

const USAGE = `assets-sync logout [--base-url URL]
  Forgets the saved account (its key leaves the keychain, its offline copy is cleared); the app goes
  back to the local sandbox.`;

export async function run(argv: string[]): Promise<number> {
  const p = parseCommand('logout', argv, { options: {}, usage: USAGE });
  if (!p.ok) return p.exitCode;
  const { common, out } = p;
  return withSession(common, out, async (s) => {
    const saved = s.state.savedAccount();
    const baseUrl = common.baseUrl ?? saved;
    if (!baseUrl) {
      out.emit('No account is saved; the local sandbox is in use.', {
        event: 'logout',
        base_url: null,
        removed: false,
      });
      return EXIT.ok;
    }
    let removed: boolean;
    try {
      removed = s.state.forgetAccount(baseUrl);
    } catch (e) {
      out.error({ code: 'KEYCHAIN-UNAVAILABLE', message: (e as Error).message });
      return EXIT.failed;
    }
    out.emit(
      removed
        ? `Logged out of ${baseUrl}; its key was removed from the keychain.`
        : `No key was stored for ${baseUrl}.`,
      { event: 'logout', base_url: baseUrl, removed },
    );
    return EXIT.ok;
  });
}
