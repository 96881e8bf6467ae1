import type { SecretStore } from '../secrets/keychain';
import type { SigningKey } from './receiver';

/** The local bot id of leads verified with ASSETS_SIGNING_SECRET (no bot row has it). */
export const ENV_SIGNER_BOT_ID = 0;

export const signingSecretAccount = (botId: number) => `signing-secret:${botId}`;

/**
 * The bots' webhook signing secrets: kept in the keychain, read once into memory so that a
 * delivery is verified without a keychain round trip (the service waits only 8 s).
 */
export function createSigningKeys(
  secrets: SecretStore,
  botIds: () => readonly number[],
  env: NodeJS.ProcessEnv = {},
) {
  let cache: SigningKey[] | null = null;
  const listeners = new Set<() => void>();
  const changed = () => {
    cache = null;
    for (const l of listeners) l();
  };
  const load = (): SigningKey[] => {
    const keys: SigningKey[] = [];
    for (const botId of botIds()) {
      const secret = secrets.get(signingSecretAccount(botId));
      if (secret) keys.push({ botId, secret });
    }
    // ASSETS_SIGNING_SECRET: for scripts and servers with no bot set up (bot 0: "not a bot of this desk").
    const fromEnv = env.ASSETS_SIGNING_SECRET?.trim();
    if (fromEnv) keys.push({ botId: ENV_SIGNER_BOT_ID, secret: fromEnv });
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
      changed();
    },
    remove(botId: number): void {
      secrets.delete(signingSecretAccount(botId));
      changed();
    },
    /** Bots were added or removed elsewhere. */
    reload(): void {
      changed();
    },
    /** Called after any change (deliveries refused for their signature are checked again). */
    onChange(listener: () => void): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

export type SigningKeys = ReturnType<typeof createSigningKeys>;
