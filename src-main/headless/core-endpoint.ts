import type { AnyEvent } from '../../src-shared/contract';
import type { AppError, Result } from '../../src-shared/errors';

/** What a shell needs from the core: call a command by name, and hear events. */
export interface CoreEndpoint {
  call(name: string, request: unknown): Promise<Result<unknown, AppError>>;
  subscribe(listener: (event: AnyEvent) => void): () => void;
}
