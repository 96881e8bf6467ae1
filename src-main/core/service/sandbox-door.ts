import { chmodSync, unlinkSync } from 'node:fs';
import { connect, createServer, type Socket } from 'node:net';
import { join } from 'node:path';
import { z } from 'zod';

/**
 * The door of a running sandbox: a Unix socket in the sandbox's own folder (0700, so only its
 * owner can open it) through which another process on the same data folder (the CLI while the app
 * runs the sandbox, or the app while a CLI command runs it) learns its address, key and admin
 * token. Nothing is written to disk: the key stays in the memory of the processes that use it, as
 * the keychain rule asks, and the door works where no Secret Service runs. A visitor keeps the
 * connection open: its end is the news that the sandbox stopped (so the visitor can take over).
 *
 * Windows has no such private socket (a named pipe is open to every local user by default); there
 * the keychain's copy of the key is the way in (running-sandbox.ts).
 */
export const DOOR_FILE = 'door.sock';

const Welcome = z.object({
  base_url: z.string().startsWith('http://'),
  api_key: z.string().min(1),
  admin_token: z.string().min(1),
  pid: z.number().int(),
});

export interface SandboxWelcome {
  baseUrl: string;
  apiKey: string;
  adminToken: string;
  /** The process running the sandbox (for messages only). */
  pid: number;
}

/** A visitor's open connection to the door. */
export interface DoorVisit extends SandboxWelcome {
  /** Settles when the owner closes the door (it stopped, or died). */
  readonly closed: Promise<void>;
  leave(): void;
}

export const doorsSupported = process.platform !== 'win32';
const doorPath = (sandboxDir: string) => join(sandboxDir, DOOR_FILE);

/**
 * Opens the door of the sandbox at `sandboxDir`. A door left by a process that died (nobody answers
 * on it) is replaced; a door that answers belongs to a running sandbox, which the caller must not be
 * (it holds the port): then null. A folder path too long for a socket (about 100 bytes) also gives
 * null: the keychain's copy is then the only way in.
 */
export async function openDoor(
  sandboxDir: string,
  welcome: SandboxWelcome,
): Promise<{ close(): Promise<void> } | null> {
  if (!doorsSupported) return null;
  const path = doorPath(sandboxDir);
  const visitors = new Set<Socket>();
  const line = `${JSON.stringify({
    base_url: welcome.baseUrl,
    api_key: welcome.apiKey,
    admin_token: welcome.adminToken,
    pid: welcome.pid,
  })}\n`;
  const server = createServer((socket) => {
    visitors.add(socket);
    socket.on('close', () => visitors.delete(socket));
    socket.on('error', () => socket.destroy());
    socket.write(line);
  });
  const listen = () =>
    new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(path, () => {
        server.off('error', reject);
        resolve();
      });
    });
  try {
    await listen();
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EADDRINUSE') return null;
    // A socket file is there: a live door, or one left by a crash.
    const visit = await knock(sandboxDir);
    if (visit) {
      visit.leave();
      return null;
    }
    try {
      unlinkSync(path);
      await listen();
    } catch {
      return null;
    }
  }
  server.unref();
  try {
    chmodSync(path, 0o600);
  } catch {
    // The folder is the owner's only already; this is a second lock.
  }
  return {
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of visitors) s.destroy();
        server.close(() => resolve());
      }),
  };
}

/**
 * Knocks at the door of the sandbox at `sandboxDir`: its welcome and an open visit when a sandbox
 * runs there, null when none does (no socket file, or nobody answering on it). Costs no request
 * to the service.
 */
export function knock(sandboxDir: string, timeoutMs = 3_000): Promise<DoorVisit | null> {
  if (!doorsSupported) return Promise.resolve(null);
  return new Promise((resolve) => {
    const socket = connect(doorPath(sandboxDir));
    let buffered = '';
    let settled = false;
    let markClosed = () => {};
    const closed = new Promise<void>((r) => {
      markClosed = r;
    });
    const give = (visit: DoorVisit | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (!visit) socket.destroy();
      resolve(visit);
    };
    const timer = setTimeout(() => give(null), timeoutMs);
    socket.setEncoding('utf8');
    socket.on('error', () => give(null));
    socket.on('close', () => {
      markClosed();
      give(null);
    });
    socket.on('data', (chunk: string) => {
      if (settled) return;
      buffered += chunk;
      const end = buffered.indexOf('\n');
      if (end < 0) return;
      let json: unknown;
      try {
        json = JSON.parse(buffered.slice(0, end));
      } catch {
        json = undefined;
      }
      const parsed = Welcome.safeParse(json);
      if (!parsed.success) return give(null);
      // The visit holds no event loop open: a command that is done may exit with it.
      socket.unref();
      give({
        baseUrl: parsed.data.base_url,
        apiKey: parsed.data.api_key,
        adminToken: parsed.data.admin_token,
        pid: parsed.data.pid,
        closed,
        leave: () => socket.destroy(),
      });
    });
  });
}
