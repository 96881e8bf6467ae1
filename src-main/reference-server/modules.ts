import type { ServerModule } from './context';
import { fileHostingModule } from './file-hosting/module';
import { kbModule } from './kb/module';

/** In order: the knowledge-entry module seeds its demo bot for the client the file-hosting module seeds. */
export const MODULES: readonly ServerModule[] = [fileHostingModule, kbModule];
