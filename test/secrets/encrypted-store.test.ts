import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { encryptedFileStore, SECRETS_FILE_NAME } from '../../src-main/core/secrets/encrypted-file';
import { KeychainUnavailableError, type SecretStore } from '../../src-main/core/secrets/keychain';
import { chooseSecretStore } from '../../src-main/core/secrets/secret-stores';

const SECRET = 'whsec_the-bots-signing-secret-0123456789';
const PASS = 'correct horse battery staple';
let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'secrets-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const codeOf = (fn: () => unknown) => {
  try {
    fn();
  } catch (e) {
    return (e as { code?: string }).code;
  }
  return 'no error';
};

describe('the encrypted secrets file', () => {
  it('keeps secrets sealed on disk, owner-only, and opens them again with the passphrase', () => {
    const file = join(dir, SECRETS_FILE_NAME);
    const a = encryptedFileStore(file);
    a.create(PASS);
    a.set('signing-secret:1', SECRET);
    a.set('relay-read-token', 'rlt_token');
    const text = readFileSync(file, 'utf8');
    expect(text).not.toContain(SECRET);
    expect(text).not.toContain('rlt_token');
    expect(text).not.toContain('signing-secret');
    expect(JSON.parse(text)).toMatchObject({ kdf: { name: 'scrypt' }, cipher: 'aes-256-gcm' });
    expect(statSync(file).mode & 0o777).toBe(0o600);

    const b = encryptedFileStore(file);
    expect(b.locked()).toBe(true);
    expect(codeOf(() => b.get('signing-secret:1'))).toBe('SECRETS-LOCKED');
    expect(codeOf(() => b.unlock('wrong passphrase'))).toBe('SECRETS-PASSPHRASE-WRONG');
    b.unlock(PASS);
    expect(b.get('signing-secret:1')).toBe(SECRET);
    expect(b.delete('relay-read-token')).toBe(true);
    const c = encryptedFileStore(file);
    c.unlock(PASS);
    expect(c.get('relay-read-token')).toBeNull();
  });

  it('refuses a file whose scrypt cost or bytes were changed, and a short passphrase', () => {
    const file = join(dir, SECRETS_FILE_NAME);
    const a = encryptedFileStore(file);
    a.create(PASS);
    a.set('k', SECRET);
    const original = JSON.parse(readFileSync(file, 'utf8'));
    // A weaker KDF written in place is caught: the parameters are covered by the tag.
    writeFileSync(file, JSON.stringify({ ...original, kdf: { ...original.kdf, N: 1024 } }));
    expect(codeOf(() => encryptedFileStore(file).unlock(PASS))).toBe('SECRETS-PASSPHRASE-WRONG');
    const data = Buffer.from(original.data, 'base64');
    data[0]! ^= 1;
    writeFileSync(file, JSON.stringify({ ...original, data: data.toString('base64') }));
    expect(codeOf(() => encryptedFileStore(file).unlock(PASS))).toBe('SECRETS-PASSPHRASE-WRONG');
    writeFileSync(file, 'not json');
    expect(codeOf(() => encryptedFileStore(file).unlock(PASS))).toBe('SECRETS-FILE-DAMAGED');
    expect(codeOf(() => encryptedFileStore(join(dir, 'other.enc')).create('short'))).toBe(
      'SECRETS-PASSPHRASE-SHORT',
    );
  });
});

describe('choosing the secret store', () => {
  // The keychain of a machine without a Secret Service: every call fails as @napi-rs/keyring does there.
  const downKeychain: SecretStore = {
    get: () => {
      throw new KeychainUnavailableError('be read');
    },
    set: () => {
      throw new KeychainUnavailableError('store the secret');
    },
    delete: () => {
      throw new KeychainUnavailableError('delete the secret');
    },
  };

  it('never falls back to a file by itself: a keychain that fails stays an error saying how to choose one', () => {
    const s = chooseSecretStore(dir, {}, downKeychain);
    expect(s.status()).toMatchObject({ kind: 'keychain', locked: false });
    let message = '';
    try {
      s.set('bot-token:1', 'kbt_x');
    } catch (e) {
      message = (e as Error).message;
    }
    expect(message).toMatch(/encrypted file/);
    expect(s.status().kind).toBe('keychain');
    expect(() => statSync(join(dir, SECRETS_FILE_NAME))).toThrow();
  });

  it('switches to the file when the person chooses it, and finds it chosen at the next start (locked)', () => {
    const s = chooseSecretStore(dir, {}, downKeychain);
    expect(s.useEncryptedFile('short').ok).toBe(false);
    const r = s.useEncryptedFile(PASS);
    expect(r.ok && r.value).toMatchObject({ kind: 'encrypted-file', locked: false });
    s.set('bot-token:1', 'kbt_x');
    const next = chooseSecretStore(dir, {}, downKeychain);
    expect(next.status()).toMatchObject({ kind: 'encrypted-file', locked: true });
    expect(codeOf(() => next.get('bot-token:1'))).toBe('SECRETS-LOCKED');
    const wrong = next.unlock('not it at all');
    expect(!wrong.ok && wrong.error.code).toBe('SECRETS-PASSPHRASE-WRONG');
    expect(next.unlock(PASS).ok).toBe(true);
    expect(next.get('bot-token:1')).toBe('kbt_x');
  });

  it('takes the choice and the passphrase from the environment for a service', () => {
    const env = { ASSETS_SECRET_STORE: 'file', ASSETS_SECRETS_PASSPHRASE: PASS };
    const a = chooseSecretStore(dir, env, downKeychain);
    expect(a.status()).toMatchObject({ kind: 'encrypted-file', locked: false, passphraseFromEnv: true });
    a.set('relay-read-token', 'rlt_1');
    expect(chooseSecretStore(dir, env, downKeychain).get('relay-read-token')).toBe('rlt_1');
    const wrong = chooseSecretStore(dir, { ...env, ASSETS_SECRETS_PASSPHRASE: 'another one!' }, downKeychain);
    expect(wrong.status()).toMatchObject({ locked: true, problem: { code: 'SECRETS-PASSPHRASE-WRONG' } });
    expect(chooseSecretStore(dir, { ASSETS_SECRET_STORE: 'keychain' }, downKeychain).status().kind).toBe(
      'keychain',
    );
    expect(
      chooseSecretStore(dir, { ASSETS_SECRET_STORE: 'vault' }, downKeychain).status().problem?.code,
    ).toBe('SECRETS-CHOICE');
  });
});
