import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PROJECT_ROOT } from './project-paths';

/** This program's version (package.json; '?' when it cannot be read): what peers see, what a database records. */
export function appVersion(): string {
  try {
    const v = (JSON.parse(readFileSync(join(PROJECT_ROOT, 'package.json'), 'utf8')) as { version?: unknown })
      .version;
    return typeof v === 'string' ? v : '?';
  } catch {
    return '?';
  }
}
