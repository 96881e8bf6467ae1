import type { CommandName, ReplyOf, RequestOf } from '../../src-shared/contract';
import type { AppError, Result } from '../../src-shared/errors';
import type { Platform } from './platform';

// Set once at start-up; stores and views call through it so that tests of a view can hand in
// another platform.
let current: Platform | null = null;

export function setPlatform(p: Platform): void {
  current = p;
}

export function platform(): Platform {
  if (!current) throw new Error('platform used before start-up');
  return current;
}

export function call<C extends CommandName>(
  name: C,
  request: RequestOf<C>,
): Promise<Result<ReplyOf<C>, AppError>> {
  return platform().core.call(name, request);
}
