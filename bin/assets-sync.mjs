#!/usr/bin/env node
// The CLI entry. TypeScript sources run through tsx's loader so that the repo works right after
// `npm install`, with no build step between a change and a run.
import { register } from 'tsx/esm/api';

register();
await import('../src-main/cli/main.ts');
