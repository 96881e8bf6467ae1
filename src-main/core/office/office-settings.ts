import { randomBytes } from 'node:crypto';
import type { OfficeSettings } from '../../../src-shared/contract/office';
import type { SecretStore } from '../secrets/keychain';
import type { ServiceSettingsStore } from '../service/settings';
import { parsePeer } from './discovery/manual';

/**
 * The office's settings, shared by the app and `assets-sync sync` on one data folder: in `service_settings`
 * (no migration needed), the office key in the keychain only (`office-key`).
 */
const KEYS = { enabled: 'office.enabled', name: 'office.name', peers: 'office.peers' } as const;
export const OFFICE_KEY_ACCOUNT = 'office-key';
/** The office key from the environment (a service, a script): it wins over the keychain's. */
export const OFFICE_KEY_ENV = 'ASSETS_OFFICE_KEY';

export interface OfficeSettingsValues {
  enabled: boolean;
  name: string;
  peers: string[];
  key: string | null;
}

function readPeers(text: string | null): string[] {
  if (!text) return [];
  try {
    const v: unknown = JSON.parse(text);
    return Array.isArray(v)
      ? v.filter((x): x is string => typeof x === 'string' && parsePeer(x) !== null)
      : [];
  } catch {
    return [];
  }
}

export function readOfficeSettings(
  settings: ServiceSettingsStore,
  secrets: SecretStore,
  env: NodeJS.ProcessEnv = process.env,
): OfficeSettingsValues {
  let key: string | null = env[OFFICE_KEY_ENV]?.trim() || null;
  try {
    key ??= secrets.get(OFFICE_KEY_ACCOUNT);
  } catch {
    // No keychain: no office key (the office then admits every desk of the same name).
  }
  return {
    enabled: settings.get(KEYS.enabled) !== 'false',
    name: settings.get(KEYS.name) ?? '',
    peers: readPeers(settings.get(KEYS.peers)),
    key: key || null,
  };
}

export function publicOfficeSettings(v: OfficeSettingsValues): OfficeSettings {
  return { enabled: v.enabled, name: v.name, peers: v.peers, hasKey: v.key !== null };
}

/**
 * A new join code: 20 random bytes in base32 (no 0/1/8/9 to mistake), grouped by four for reading aloud.
 * 100 bits: guessing it is out of reach; the MAC key is derived from it (protocol.ts `macKey`).
 */
export function newJoinCode(): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  const bytes = randomBytes(20);
  let bits = 0;
  let value = 0;
  let out = '';
  for (const b of bytes) {
    value = (value << 8) | b;
    bits += 8;
    while (bits >= 5) {
      out += alphabet[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  return out.match(/.{1,4}/g)!.join('-');
}

/** Applies a change; a peer that is not host[:port] is refused with the entry named. */
export function writeOfficeSettings(
  settings: ServiceSettingsStore,
  secrets: SecretStore,
  patch: Partial<Omit<OfficeSettings, 'hasKey'>> & { key?: string },
): { ok: true } | { ok: false; message: string } {
  const bad = patch.peers?.find((p) => parsePeer(p) === null);
  if (bad !== undefined)
    return { ok: false, message: `"${bad}" is not host:port (for example 192.168.1.20:47913).` };
  if (patch.enabled !== undefined) settings.set(KEYS.enabled, String(patch.enabled));
  if (patch.name !== undefined) settings.set(KEYS.name, patch.name.trim());
  if (patch.peers !== undefined) settings.set(KEYS.peers, JSON.stringify(patch.peers.map((p) => p.trim())));
  if (patch.key !== undefined) {
    if (patch.key === '') secrets.delete(OFFICE_KEY_ACCOUNT);
    else secrets.set(OFFICE_KEY_ACCOUNT, patch.key);
  }
  return { ok: true };
}
