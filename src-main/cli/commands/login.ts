import { appError } from '../../../src-shared/errors';
import { createFileApiClient, normalizeBaseUrl, plainHttpRefusal } from '../../core';
import { EXIT, parseCommand, withSession } from '../common';
import { readSecret } from '../read-secret';
import { forTerminal } from '../terminal-text';

const USAGE = `assets-sync login --base-url URL [--allow-http]
  Checks an API key with the service (GET /me) and keeps it in the system keychain.
  The key is read from a hidden prompt, or from standard input when it is not a terminal.
  --allow-http   send the key over plain http:// to a host that is not this computer
                 (refused without it: the key would cross the network unencrypted)`;

export async function run(argv: string[]): Promise<number> {
  const p = parseCommand('login', argv, {
    options: { 'allow-http': { type: 'boolean', default: false } },
    usage: USAGE,
  });
  if (!p.ok) return p.exitCode;
  const { common, out, values } = p;
  const baseUrlText = common.baseUrl ?? process.env.ASSETS_BASE_URL;
  if (!baseUrlText) {
    out.error(
      appError(
        'NO-BASE-URL',
        'login needs the service address: pass --base-url URL (the sandbox needs no login).',
      ),
    );
    return EXIT.usage;
  }
  const normalized = normalizeBaseUrl(baseUrlText);
  if (!normalized.ok) {
    out.error(normalized.error);
    return EXIT.usage;
  }
  const baseUrl = normalized.value;
  const clear = values['allow-http'] ? null : plainHttpRefusal(baseUrl, 'pass --allow-http');
  if (clear) {
    out.error(clear);
    return EXIT.usage;
  }
  const key = await readSecret(`API key for ${baseUrl}: `);
  if (!key) {
    out.error(appError('NO-KEY', 'No API key was given; nothing was stored.'));
    return EXIT.usage;
  }
  if (key.length > 4096 || !/^[\x21-\x7e]+$/.test(key)) {
    out.error(
      appError(
        'KEY-INVALID',
        'That does not look like an API key (only printable ASCII without spaces); nothing was stored.',
      ),
    );
    return EXIT.usage;
  }
  return withSession(common, out, async (s) => {
    const me = await createFileApiClient({ baseUrl, apiKey: key }).me();
    if (!me.ok) {
      out.error({
        ...me.error,
        message: `The key was not accepted, nothing was stored. ${me.error.message}`,
      });
      return EXIT.failed;
    }
    try {
      s.state.rememberAccount(baseUrl, key);
    } catch (e) {
      out.error(
        appError(
          'KEYCHAIN-UNAVAILABLE',
          `${(e as Error).message} Set ASSETS_API_KEY instead on a headless machine.`,
        ),
      );
      return EXIT.failed;
    }
    s.state.cache.putAccount(baseUrl, me.value);
    const c = me.value.client;
    out.emit(
      `Logged in to ${baseUrl} as "${forTerminal(c.name)}" (client ${c.id}). The key is in the system keychain.`,
      {
        event: 'login',
        base_url: baseUrl,
        client: { id: c.id, name: c.name, status: c.status },
      },
    );
    return EXIT.ok;
  });
}
