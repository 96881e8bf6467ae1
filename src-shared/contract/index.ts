import type { z } from 'zod';
import type { AppError, Result } from '../errors';
import { accountCommands, accountEvents } from './account';
import type { CommandDef } from './define';
import { dryRunCommands } from './dry-run';
import { filesCommands } from './files';
import { ignoredCommands } from './ignored';
import { kbCommands, kbEvents } from './kb';
import { leadsCommands, leadsEvents } from './leads';
import { linksCommands } from './links';
import { officeCommands, officeEvents } from './office';
import { remoteIndexCommands, remoteIndexEvents } from './remote-index';
import { sandboxCommands } from './sandbox';
import { secretsCommands, secretsEvents } from './secrets';
import { sessionCommands, sessionEvents } from './session';
import { settingsCommands, settingsEvents } from './settings';
import { statementCommands } from './statement';
import { syncCommands, syncEvents } from './sync';
import { urlImportCommands, urlImportEvents } from './url-import';

// Sections of other areas plug in here, one import and one spread each (knowledge entries: ./kb,
// leads: ./leads). Command names are `<section>.<verb>` so sections never collide.

/** Every command the UI may send to the core. */
export const commands = {
  ...sessionCommands,
  ...accountCommands,
  ...filesCommands,
  ...remoteIndexCommands,
  ...syncCommands,
  ...ignoredCommands,
  ...settingsCommands,
  ...kbCommands,
  ...leadsCommands,
  ...sandboxCommands,
  ...dryRunCommands,
  ...urlImportCommands,
  ...linksCommands,
  ...officeCommands,
  ...secretsCommands,
  ...statementCommands,
} satisfies Record<string, CommandDef>;

/** Every event the core pushes to the UI. */
export const events = {
  ...sessionEvents,
  ...accountEvents,
  ...remoteIndexEvents,
  ...syncEvents,
  ...settingsEvents,
  ...kbEvents,
  ...leadsEvents,
  ...urlImportEvents,
  ...officeEvents,
  ...secretsEvents,
} satisfies Record<string, z.ZodType>;

export type Commands = typeof commands;
export type CommandName = keyof Commands;
export type RequestOf<C extends CommandName> = z.input<Commands[C]['request']>;
export type ParsedRequestOf<C extends CommandName> = z.output<Commands[C]['request']>;
export type ReplyOf<C extends CommandName> = z.output<Commands[C]['reply']>;

export type Events = typeof events;
export type EventName = keyof Events;
export type PayloadOf<E extends EventName> = z.output<Events[E]>;
export type AnyEvent = { [E in EventName]: { event: E; payload: PayloadOf<E> } }[EventName];

export const isCommandName = (name: unknown): name is CommandName =>
  typeof name === 'string' && Object.hasOwn(commands, name);

/**
 * What both transports give the renderer: commands answer promises of Results (never throw for a
 * refused request), events arrive through one subscription.
 */
export interface CoreApi {
  call<C extends CommandName>(name: C, request: RequestOf<C>): Promise<Result<ReplyOf<C>, AppError>>;
  subscribe(listener: (event: AnyEvent) => void): () => void;
}

/**
 * Checks a request that came over a transport. The error names the field and the problem so the
 * UI can show it as is.
 */
export function parseRequest<C extends CommandName>(
  name: C,
  raw: unknown,
): Result<ParsedRequestOf<C>, AppError> {
  const parsed = commands[name].request.safeParse(raw ?? {});
  if (parsed.success) return { ok: true, value: parsed.data as ParsedRequestOf<C> };
  const issue = parsed.error.issues[0];
  const where = issue?.path.length ? `${issue.path.join('.')}: ` : '';
  return {
    ok: false,
    error: {
      code: 'VALIDATION',
      message: `${where}${issue?.message ?? 'the request is malformed'}`,
      ...(issue?.path.length ? { field: issue.path.join('.') } : {}),
    },
  };
}

export * from './account';
export * from './define';
export * from './dry-run';
export * from './files';
export * from './ignored';
export * from './kb';
export * from './leads';
export * from './office';
export * from './remote-index';
export * from './sandbox';
export * from './session';
export * from './settings';
export * from './sync';
