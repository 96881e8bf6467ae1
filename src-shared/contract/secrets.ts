import { z } from 'zod';
import { AppErrorSchema, command, Empty } from './define';

/** Where the app keeps secrets (API keys, bot tokens, signing secrets, the relay's read token). */
export const SecretStoreStatusSchema = z.object({
  /** The OS keychain, or an encrypted file in the data folder (for machines without one). */
  kind: z.enum(['keychain', 'encrypted-file']),
  /** The file is there but not unlocked yet: secrets cannot be read or stored until it is. */
  locked: z.boolean(),
  file: z.string().nullable(),
  /** ASSETS_SECRETS_PASSPHRASE is set (a service unlocks the file by itself). */
  passphraseFromEnv: z.boolean(),
  /** Why the chosen store cannot be used (a wrong passphrase from the environment...). */
  problem: AppErrorSchema.nullable(),
});
export type SecretStoreStatus = z.infer<typeof SecretStoreStatusSchema>;

const Passphrase = z.string().min(8, 'at least 8 characters').max(1024);

export const secretsCommands = {
  'secrets.status': command(Empty, SecretStoreStatusSchema),
  /**
   * Chosen by the person, never by the app on its own: from now on secrets go to an encrypted file
   * (scrypt + AES-256-GCM). Secrets already in a keychain stay there.
   */
  'secrets.useEncryptedFile': command(z.object({ passphrase: Passphrase }).strict(), SecretStoreStatusSchema),
  'secrets.unlock': command(
    z.object({ passphrase: z.string().min(1).max(1024) }).strict(),
    SecretStoreStatusSchema,
  ),
} as const;

export const secretsEvents = {
  'secrets.changed': SecretStoreStatusSchema,
} as const;
