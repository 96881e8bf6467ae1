import { randomUUID } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** A marker in the sandbox's data folder: it lives as long as the sandbox's files do. */
const MARKER = 'sync-service-id';

/**
 * The name of the service a connection talks to, recorded with /me's client id as the account the
 * sync rows belong to. A real account: its base URL. The embedded sandbox runs on a new port at every
 * start, and a reset gives a new, empty service (client 1 again, perhaps at the same URL), so it is
 * named by a random id kept in its data folder (`<dataDir>/sandbox`, which a reset deletes).
 */
export function serviceIdentity(
  connection: { kind: 'sandbox' | 'account'; baseUrl: string },
  dataDir: string,
): string {
  if (connection.kind !== 'sandbox') return connection.baseUrl;
  const file = join(dataDir, 'sandbox', MARKER);
  const read = () => {
    try {
      return readFileSync(file, 'utf8').trim() || null;
    } catch {
      return null;
    }
  };
  const found = read();
  if (found) return `sandbox:${found}`;
  const id = randomUUID();
  try {
    writeFileSync(file, id, { flag: 'wx' });
    return `sandbox:${id}`;
  } catch {
    // Written by another process meanwhile (read it), or not writable: then the port names it, and a
    // restart costs one check of the synced files against the listing (nothing is uploaded twice).
    const again = read();
    return again ? `sandbox:${again}` : connection.baseUrl;
  }
}
