import type { SecretStore } from '../secrets/keychain';
import type { SigningKey } from './receiver';

export const signingSecretAccount = (botId: number) => `signing-secret:${botId}`;

/**
 * The bots' webhook signing secrets: kept in the keychain, read once into memory so that a
 * delivery is verified without a keychain round trip (the service waits only 8 s).
 */
export function createSigningKeys(secrets: SecretStore, botIds: () => readonly number[]) {
  let cache: SigningKey[] | null = null;
  const load = (): SigningKey[] => {
    const keys: SigningKey[] = [];
    for (const botId of botIds()) {
      const secret = secrets.get(signingSecretAccount(botId));
      if (secret) keys.push({ botId, secret });
    }
    return keys;
  };
  return {
    all(): readonly SigningKey[] {
      cache ??= load();
      return cache;
    },
    has(botId: number): boolean {
      return this.all().some((k) => k.botId === botId);
    },
    set(botId: number, secret: string): void {
      secrets.set(signingSecretAccount(botId), secret);
      cache = null;
    },
    remove(botId: number): void {
      secrets.delete(signingSecretAccount(botId));
      cache = null;
    },
    /** Bots were added or removed elsewhere. */
    reload(): void {
      cache = null;
    },
  };
}

export type SigningKeys = ReturnType<typeof createSigningKeys>;
