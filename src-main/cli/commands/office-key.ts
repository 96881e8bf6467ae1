import { appError } from '../../../src-shared/errors';
import { newJoinCode, OFFICE_KEY_ACCOUNT, OFFICE_KEY_ENV } from '../../core';
import { EXIT, parseCommand, withSession } from '../common';
import { readSecret } from '../read-secret';

const USAGE = `assets-sync office-key new|set|show|clear
  The office's join code: desks with the same code form a keyed office, closed to every desk and device
  without it (docs/office.md). Kept in the system keychain ("office-key"); ${OFFICE_KEY_ENV} wins over it.
  Applies at the next start of the app or of "assets-sync sync".
  new     make a random join code, keep it, and print it to give to the office's other desks
  set     keep a join code given by another desk (read from a hidden prompt, or standard input)
  show    print this desk's join code
  clear   forget it: the office is open again (any device on the network can take part)`;

export async function run(argv: string[]): Promise<number> {
  const p = parseCommand('office-key', argv, { options: {}, usage: USAGE, positionals: { min: 1, max: 1 } });
  if (!p.ok) return p.exitCode;
  const { common, out, positionals } = p;
  const action = positionals[0];
  if (!['new', 'set', 'show', 'clear'].includes(action ?? '')) {
    out.error(
      appError('USAGE', `"${action}" is not new, set, show or clear. Usage: ${USAGE.split('\n')[0]}`),
    );
    return EXIT.usage;
  }
  const fromEnv = Boolean(process.env[OFFICE_KEY_ENV]?.trim());
  if (fromEnv && action !== 'show') {
    out.error(
      appError(
        'OFFICE-KEY-FROM-ENV',
        `${OFFICE_KEY_ENV} sets this desk's office key: change or unset it there.`,
      ),
    );
    return EXIT.usage;
  }
  let given: string | null = null;
  if (action === 'set') {
    given = await readSecret('Join code: ');
    if (!given) {
      out.error(appError('NO-KEY', 'No join code was given; nothing was stored.'));
      return EXIT.usage;
    }
    if (given.length < 8 || given.length > 256 || !/^[\x20-\x7e]+$/.test(given)) {
      out.error(
        appError(
          'OFFICE-KEY-INVALID',
          'A join code is 8 to 256 printable ASCII characters (as "assets-sync office-key new" prints it); nothing was stored.',
        ),
      );
      return EXIT.usage;
    }
  }
  return withSession(common, out, async (s) => {
    try {
      if (action === 'show') {
        const code = fromEnv ? process.env[OFFICE_KEY_ENV]!.trim() : s.state.secrets.get(OFFICE_KEY_ACCOUNT);
        out.emit(
          code
            ? `Join code${fromEnv ? ` (from ${OFFICE_KEY_ENV})` : ''}: ${code}`
            : 'No join code: an open office (any device on this network can take part). "assets-sync office-key new" makes one.',
          { event: 'office-key', keyed: code !== null, code, fromEnv },
        );
      } else if (action === 'clear') {
        const removed = s.state.secrets.delete(OFFICE_KEY_ACCOUNT);
        out.emit(
          removed
            ? 'The join code is forgotten: an open office from the next start.'
            : 'No join code was kept; the office is open.',
          { event: 'office-key', keyed: false, removed },
        );
      } else {
        const code = given ?? newJoinCode();
        s.state.secrets.set(OFFICE_KEY_ACCOUNT, code);
        out.emit(
          action === 'new'
            ? `New join code: ${code}\nGive it to every desk of this office ("assets-sync office-key set", or Settings > Office); a desk without it no longer takes part. Applies at the next start.`
            : 'Join code kept in the keychain: a keyed office from the next start.',
          { event: 'office-key', keyed: true, ...(action === 'new' ? { code } : {}) },
        );
      }
    } catch (e) {
      out.error(appError('KEYCHAIN-UNAVAILABLE', `${(e as Error).message} Set ${OFFICE_KEY_ENV} instead.`));
      return EXIT.failed;
    }
    return EXIT.ok;
  });
}
