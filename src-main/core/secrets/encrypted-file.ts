import { createCipheriv, createDecipheriv, randomBytes, scryptSync } from 'node:crypto';
import { closeSync, existsSync, fsyncSync, openSync, readFileSync, renameSync, writeSync } from 'node:fs';
import { z } from 'zod';
import { PRIVATE_FILE_MODE } from '../../shared-node/private-files';
import type { SecretStore } from './keychain';

/**
 * Secrets in a file, encrypted, for machines without a keychain (a relay box, a server, WSL, a
 * minimal desktop): the way rclone encrypts its config. A key is derived from a passphrase with scrypt
 * and the secrets are sealed with AES-256-GCM, which also proves on reading that neither the file nor
 * the passphrase is wrong. The KDF parameters travel in the file and are covered by the tag (as
 * associated data), so they cannot be weakened in place. Each write has a fresh IV and replaces the file
 * whole (temporary file, fsync, rename), mode 0600. Plain text never touches the disk.
 */
export const SECRETS_FILE_NAME = 'secrets.enc';

/** N = 2^15, r = 8: 32 MiB and about 0.1 s per unlock on a small machine; tests may lower N. */
const DEFAULT_KDF = { N: 2 ** 15, r: 8, p: 1 } as const;

const FileSchema = z.object({
  format: z.literal('assets-sync-secrets'),
  version: z.literal(1),
  kdf: z.object({
    name: z.literal('scrypt'),
    N: z
      .number()
      .int()
      .min(2 ** 10)
      .max(2 ** 20),
    r: z.number().int().min(1).max(32),
    p: z.number().int().min(1).max(16),
    salt: z.string(),
  }),
  cipher: z.literal('aes-256-gcm'),
  iv: z.string(),
  tag: z.string(),
  data: z.string(),
});
type SecretsFile = z.infer<typeof FileSchema>;

export class SecretStoreError extends Error {
  constructor(
    readonly code:
      | 'SECRETS-LOCKED'
      | 'SECRETS-PASSPHRASE-WRONG'
      | 'SECRETS-FILE-DAMAGED'
      | 'SECRETS-PASSPHRASE-SHORT',
    message: string,
  ) {
    super(message);
  }
}

export const MIN_PASSPHRASE_LENGTH = 8;

const header = (f: Pick<SecretsFile, 'format' | 'version' | 'kdf' | 'cipher'>) =>
  Buffer.from(JSON.stringify({ format: f.format, version: f.version, kdf: f.kdf, cipher: f.cipher }));

function deriveKey(passphrase: string, kdf: SecretsFile['kdf']): Buffer {
  return scryptSync(passphrase.normalize('NFC'), Buffer.from(kdf.salt, 'base64'), 32, {
    N: kdf.N,
    r: kdf.r,
    p: kdf.p,
    maxmem: 256 * kdf.N * kdf.r,
  });
}

export interface EncryptedFileStore extends SecretStore {
  readonly file: string;
  exists(): boolean;
  locked(): boolean;
  /** Makes a new, empty file sealed with this passphrase (refuses to replace an existing one). */
  create(passphrase: string): void;
  /** Opens the existing file (SECRETS-PASSPHRASE-WRONG, SECRETS-FILE-DAMAGED). */
  unlock(passphrase: string): void;
}

export function encryptedFileStore(
  file: string,
  kdfCost: { N: number; r: number; p: number } = DEFAULT_KDF,
): EncryptedFileStore {
  let key: Buffer | null = null;
  let kdf: SecretsFile['kdf'] | null = null;
  let secrets: Record<string, string> = {};

  const read = (): SecretsFile => {
    let parsed: unknown;
    try {
      parsed = JSON.parse(readFileSync(file, 'utf8'));
    } catch {
      throw new SecretStoreError('SECRETS-FILE-DAMAGED', `${file} is not a secrets file of this app.`);
    }
    const f = FileSchema.safeParse(parsed);
    if (!f.success)
      throw new SecretStoreError('SECRETS-FILE-DAMAGED', `${file} is not a secrets file of this app.`);
    return f.data;
  };

  /** Writes `next` sealed; only then does it become the store's content. */
  const write = (next: Record<string, string>) => {
    if (!key || !kdf) throw locked();
    const iv = randomBytes(12);
    const meta = { format: 'assets-sync-secrets', version: 1, kdf, cipher: 'aes-256-gcm' } as const;
    const cipher = createCipheriv('aes-256-gcm', key, iv);
    cipher.setAAD(header(meta));
    const data = Buffer.concat([cipher.update(JSON.stringify(next), 'utf8'), cipher.final()]);
    const text = JSON.stringify({
      ...meta,
      iv: iv.toString('base64'),
      tag: cipher.getAuthTag().toString('base64'),
      data: data.toString('base64'),
    });
    const temp = `${file}.${process.pid}.tmp`;
    const fd = openSync(temp, 'w', PRIVATE_FILE_MODE);
    try {
      writeSync(fd, text);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temp, file);
    secrets = next;
  };

  const locked = () =>
    new SecretStoreError(
      'SECRETS-LOCKED',
      'The encrypted secrets file is locked: unlock it with its passphrase (Settings → Secrets, or ASSETS_SECRETS_PASSPHRASE for a service).',
    );

  return {
    file,
    exists: () => existsSync(file),
    locked: () => key === null,
    create(passphrase) {
      if (passphrase.length < MIN_PASSPHRASE_LENGTH)
        throw new SecretStoreError(
          'SECRETS-PASSPHRASE-SHORT',
          `The passphrase must have at least ${MIN_PASSPHRASE_LENGTH} characters.`,
        );
      if (existsSync(file)) {
        this.unlock(passphrase);
        return;
      }
      kdf = { name: 'scrypt', ...kdfCost, salt: randomBytes(16).toString('base64') };
      key = deriveKey(passphrase, kdf);
      write({});
    },
    unlock(passphrase) {
      const f = read();
      const k = deriveKey(passphrase, f.kdf);
      let plain: string;
      try {
        const decipher = createDecipheriv('aes-256-gcm', k, Buffer.from(f.iv, 'base64'));
        decipher.setAAD(header(f));
        decipher.setAuthTag(Buffer.from(f.tag, 'base64'));
        plain = Buffer.concat([decipher.update(Buffer.from(f.data, 'base64')), decipher.final()]).toString(
          'utf8',
        );
      } catch {
        // GCM cannot tell a wrong passphrase from a changed file: both fail the tag.
        throw new SecretStoreError(
          'SECRETS-PASSPHRASE-WRONG',
          'The passphrase does not open the secrets file (or the file was changed).',
        );
      }
      const parsed = z.record(z.string(), z.string()).safeParse(JSON.parse(plain));
      if (!parsed.success)
        throw new SecretStoreError('SECRETS-FILE-DAMAGED', `${file} holds something else.`);
      key = k;
      kdf = f.kdf;
      secrets = parsed.data;
    },
    get(account) {
      if (!key) throw locked();
      return Object.hasOwn(secrets, account) ? secrets[account]! : null;
    },
    set(account, secret) {
      if (!key) throw locked();
      write({ ...secrets, [account]: secret });
    },
    delete(account) {
      if (!key) throw locked();
      if (!Object.hasOwn(secrets, account)) return false;
      const { [account]: _gone, ...rest } = secrets;
      write(rest);
      return true;
    },
  };
}
