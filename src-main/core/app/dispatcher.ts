import {
  type CommandName,
  type CoreApi,
  isCommandName,
  parseRequest,
  type ReplyOf,
  type RequestOf,
} from '../../../src-shared/contract';
import type { AppError, Result } from '../../../src-shared/errors';
import type { Handler, Handlers, Section } from './section';

export type Dispatch = (name: string, rawRequest: unknown) => Promise<Result<unknown, AppError>>;

/**
 * Joins the sections' handlers into one table and answers any command by name: unknown names and
 * malformed requests come back as errors that say so, and a handler that throws becomes an
 * INTERNAL error rather than a crash of the shell.
 */
export function createDispatcher(
  sections: readonly Section[],
  log: (line: string) => void = () => {},
): Dispatch {
  const table: Handlers = {};
  for (const section of sections) {
    for (const [name, handler] of Object.entries(section.handlers)) {
      if (Object.hasOwn(table, name)) throw new Error(`Command "${name}" is claimed by two sections`);
      (table as Record<string, unknown>)[name] = handler;
    }
  }
  return async (name, rawRequest) => {
    if (!isCommandName(name))
      return fail('UNKNOWN-COMMAND', `There is no command "${String(name).slice(0, 80)}".`);
    const handler = table[name] as Handler<CommandName> | undefined;
    if (!handler) return fail('NOT-AVAILABLE', `"${name}" is not available in this build.`);
    const request = parseRequest(name, rawRequest);
    if (!request.ok) return request;
    try {
      return (await handler(request.value as never)) as Result<ReplyOf<CommandName>, AppError>;
    } catch (error) {
      log(
        `command ${name} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
      );
      const code = (error as { code?: unknown })?.code;
      return fail(
        typeof code === 'string' ? code : 'INTERNAL',
        error instanceof Error
          ? error.message
          : 'Something went wrong inside the app; the activity log has details.',
      );
    }
  };
}

/**
 * The dispatcher typed as the contract's API. The cast is the one place the types meet the table:
 * `Handlers` maps each command C to a handler that answers `ReplyOf<C>`, so a reply to `name` is
 * `ReplyOf<typeof name>`; an unknown name or a bad request cannot reach it through these types.
 */
export function typedCall(dispatch: Dispatch): CoreApi['call'] {
  return <C extends CommandName>(name: C, request: RequestOf<C>) =>
    dispatch(name, request) as Promise<Result<ReplyOf<C>, AppError>>;
}

const fail = (code: string, message: string): Result<never, AppError> => ({
  ok: false,
  error: { code, message },
});
