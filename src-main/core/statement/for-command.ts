import type { Statement } from '../../../src-shared/contract/statement';
import type { AppError, Result } from '../../../src-shared/errors';
import type { LocalState } from '../app/local-state';
import { createServiceClock } from '../app/service-clock';
import type { Connection } from '../service/connection';
import type { FileApiClient } from '../service/file-api-client';
import { serviceIdentity } from '../sync/account/service-identity';
import { statementOfMonth } from './month-of-account';
import { statementStore } from './statement-store';

/**
 * `assets-sync statement`: the same statement as the app's, from a command that runs once. It reads
 * the service's clock as the app does (the sandbox's admin clock, else the Date header), keeps its /me
 * read like any other, and tells the month.
 */
export async function statementForCommand(o: {
  state: LocalState;
  connection: Connection;
  client: FileApiClient;
  month: string | undefined;
}): Promise<Result<Statement, AppError>> {
  const clock = createServiceClock({ onChange: () => {} });
  try {
    clock.follow(o.connection);
    await clock.refresh();
    const store = statementStore(o.state.db);
    store.setClockOffset(clock.get().offsetMs);
    const source = o.connection.cacheSource;
    return await statementOfMonth(
      {
        db: o.state.db,
        client: o.client,
        source,
        service: serviceIdentity(o.connection, o.state.dataDir),
        now: () => clock.now(),
        refresh: true,
        noteMe: (me) => {
          o.state.cache.putAccount(source, me);
          store.noteRead({ source, clientId: me.client.id }, me, clock.now());
        },
      },
      o.month,
    );
  } finally {
    clock.close();
  }
}
