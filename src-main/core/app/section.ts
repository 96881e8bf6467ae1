import type { CommandName, ParsedRequestOf, ReplyOf } from '../../../src-shared/contract';
import type { AppError, Result } from '../../../src-shared/errors';

/** One command's implementation: it gets the request already validated by the contract. */
export type Handler<C extends CommandName> = (
  request: ParsedRequestOf<C>,
) => Promise<Result<ReplyOf<C>, AppError>>;
export type Handlers = { [C in CommandName]?: Handler<C> };

/**
 * A slice of the app (session, files, sync, knowledge entries, leads...) contributes handlers for
 * its commands and may hold resources it releases on close. Sections never call each other's
 * handlers; they share the context.
 */
export interface Section {
  readonly name: string;
  readonly handlers: Handlers;
  /** Called after every section is built: background work (watchers, timers) starts here. */
  start?(): Promise<void> | void;
  close?(): Promise<void> | void;
}
