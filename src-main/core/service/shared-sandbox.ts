import { join } from 'node:path';
import type { AppError, Result } from '../../../src-shared/errors';
import { err, ok } from '../../../src-shared/errors';
import type { SecretStore } from '../secrets/keychain';
import type { Connection } from './connection';
import { type Attempt, createPacer, done, retry } from './pacer';
import { SANDBOX_PORT_WAIT_BACKOFF, SANDBOX_TAKE_OVER_BACKOFF } from './retry-policy';
import { runningSandbox } from './running-sandbox';
import { type Sandbox, startSandbox } from './sandbox';
import { type DoorVisit, knock } from './sandbox-door';

/** A connection to this data folder's sandbox, whichever process runs it. */
export interface SandboxConnection extends Connection {
  kind: 'sandbox';
  /** This process runs the sandbox now (it started it, or took it over): it alone may reset it. */
  readonly startedHere: boolean;
  /** The process that runs it, for messages. */
  readonly ownerPid: number | null;
}

/**
 * One sandbox per data folder, shared by every process on it (the app, the CLI's commands): the
 * one running is used (its door, else its key in the keychain), and only when none runs does this
 * process start it, on the folder's one port. A process using another's sandbox takes it over when
 * that one stops (its door closes): the address stays, the key it holds stays valid (keys are never
 * revoked by a start, and the data is the same), the admin token is kept, so the caller's client and
 * engine never notice more than a few refused connections.
 */
export async function shareSandbox(o: {
  dataDir: string;
  secrets: SecretStore;
  ratePerMinute?: number;
  /** False for a command that only reads: the sandbox's folder keeps its modes (private-files.ts). */
  tighten?: boolean;
  cacheSource: string;
}): Promise<Result<SandboxConnection, AppError>> {
  const dir = join(o.dataDir, 'sandbox');
  let owned: Sandbox | null = null;
  let visit: DoorVisit | null = null;
  let ownerPid: number | null = null;
  let adminToken: string | undefined;
  let closed = false;
  /** Ends the waits of a take-over or of a port held, when this connection closes. */
  const stop = new AbortController();
  const takeOver = createPacer({ policy: SANDBOX_TAKE_OVER_BACKOFF });
  const portWait = createPacer({ policy: SANDBOX_PORT_WAIT_BACKOFF });

  const watch = (v: DoorVisit) => {
    void v.closed.then(async () => {
      if (closed || visit !== v) return;
      visit = null;
      // The owner stopped: take over (or, if another process was quicker, use its sandbox).
      await takeOver
        .call(
          async (): Promise<Attempt<boolean>> => {
            if (closed || owned || visit) return done(true);
            return (await reach()).ok ? done(true) : retry(false);
          },
          { signal: stop.signal },
        )
        .catch(() => undefined);
    });
  };

  async function reach(): Promise<Result<{ baseUrl: string; apiKey: string }, AppError>> {
    const door = await knock(dir);
    if (door) return ok(attach(door));
    const keyed = await runningSandbox(o.dataDir, o.secrets, o.cacheSource);
    if (keyed) {
      ownerPid = null;
      adminToken = undefined;
      return ok(keyed);
    }
    const started = await startSandbox({
      dataDir: o.dataDir,
      secrets: o.secrets,
      ...(o.tighten === false ? { tighten: false } : {}),
      ...(o.ratePerMinute !== undefined ? { ratePerMinute: o.ratePerMinute } : {}),
      ...(adminToken ? { adminToken } : {}),
    });
    if (started.ok) {
      if (closed) {
        await started.value.close();
        return started;
      }
      owned = started.value;
      ownerPid = process.pid;
      adminToken = owned.adminToken;
      return started;
    }
    if (started.error.code !== 'SANDBOX-PORT-TAKEN') return started;
    // The port is held: another process may be starting this sandbox right now (its door opens once
    // its key is minted), or a stranger holds it.
    const late = await portWait
      .call(
        async () => {
          const door = await knock(dir);
          return door ? done(door) : retry(null);
        },
        { signal: stop.signal },
      )
      .catch(() => null);
    return late ? ok(attach(late)) : started;
  }

  function attach(door: DoorVisit) {
    if (closed) door.leave();
    visit = door;
    ownerPid = door.pid;
    adminToken = door.adminToken;
    watch(door);
    return door;
  }

  const first = await reach();
  if (!first.ok) return err(first.error);
  const { baseUrl, apiKey } = first.value;
  return ok({
    kind: 'sandbox',
    baseUrl,
    apiKey,
    cacheSource: o.cacheSource,
    origin: 'sandbox',
    get adminToken() {
      return adminToken;
    },
    get startedHere() {
      return owned !== null;
    },
    get ownerPid() {
      return ownerPid;
    },
    async close() {
      closed = true;
      stop.abort();
      visit?.leave();
      visit = null;
      const mine = owned;
      owned = null;
      await mine?.close();
    },
  });
}
