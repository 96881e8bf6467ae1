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
): OfficeSettingsValues {
  let key: string | null = null;
  try {
    key = secrets.get(OFFICE_KEY_ACCOUNT);
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
