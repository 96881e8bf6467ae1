import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inspect } from 'node:util';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { type AppService, createAppService } from '../../src-main/core/app/app-service';
import { type CommandName, commands, DEFAULT_SETTINGS } from '../../src-shared/contract';
import { memorySecrets } from '../support/secrets';
import { FUZZ_SCALE, FUZZ_SEED, watchCrashes } from './run-fuzz';

// Every contract command, through the real app service (a fresh data folder, first run), with
// generated payloads. What a page or a renderer sends is never trusted: a payload the schema
// refuses is VALIDATION naming the field, and one it accepts is a reply or a domain error, never
// a throw or INTERNAL.
let dir: string;
let app: AppService;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'fuzz-contract-'));
  app = await createAppService({
    dataDir: join(dir, 'data'),
    secrets: memorySecrets(),
    env: {},
    log: () => {},
    // A desk of the office: its commands are fuzzed too (its folder of desks kept to this test).
    office: true,
  });
});
afterAll(async () => {
  await app.close();
  rmSync(dir, { recursive: true, force: true });
});

const NAMES = Object.keys(commands) as CommandName[];

/** The field names of a request schema (through optional, default and pipe wrappers). */
function keysOf(schema: z.ZodType): string[] {
  const s = schema as unknown as {
    shape?: Record<string, unknown>;
    def?: { innerType?: z.ZodType; in?: z.ZodType };
  };
  if (s.shape) return Object.keys(s.shape);
  if (s.def?.innerType) return keysOf(s.def.innerType);
  if (s.def?.in) return keysOf(s.def.in);
  return [];
}

/** What could arrive over Electron IPC (structured clone) or the WebSocket (JSON). */
const anyValue = fc.anything({
  maxDepth: 3,
  withBigInt: true,
  withDate: true,
  withMap: true,
  withSet: true,
  withTypedArray: true,
  withBoxedValues: true,
  withNullPrototype: true,
  withSparseArray: true,
});
const plausible = fc.oneof(
  fc.integer({ min: -3, max: 100 }),
  fc.constantFrom(0, 1, 2, 5000, 2 ** 31, 2 ** 53, -0, 0.5, Number.NaN),
  fc.boolean(),
  fc.constantFrom(
    'system',
    'light',
    'dark',
    'LEAD-CAPTURED',
    'HANDOFF-REQUESTED',
    'site',
    'a',
    '',
    '/x',
    '127.0.0.1',
  ),
  fc.string({ maxLength: 20 }),
  fc.constant(null),
  fc.array(fc.nat(50), { maxLength: 3 }),
);
const payloadFor = (keys: string[], value: fc.Arbitrary<unknown>): fc.Arbitrary<unknown> =>
  fc.dictionary(fc.constantFrom(...keys, '__proto__', 'constructor', 'extra'), value, {
    maxKeys: keys.length + 1,
  });

/**
 * Candidate payloads from a request schema's structure (zod 4 definitions): the right keys, values
 * of the right kind and near their limits, so that many pass and reach the handlers.
 */
function candidateOf(schema: z.ZodType): fc.Arbitrary<unknown> {
  // biome-ignore lint/suspicious/noExplicitAny: zod's definition objects differ per kind
  const def = (schema as any)._zod.def;
  switch (def.type) {
    case 'object': {
      const fields = Object.entries(def.shape as Record<string, z.ZodType>);
      const whole = fc.record(Object.fromEntries(fields.map(([k, v]) => [k, candidateOf(v)])));
      // A patch (every field optional, settings.update) is valid only when each field present is: with a
      // dozen fields, whole records almost never are, so patches of one field are offered beside them.
      const patch = fields.length > 0 && fields.every(([, v]) => v.safeParse(undefined).success);
      if (!patch) return whole;
      return fc.oneof(
        whole,
        fc.constantFrom(...fields).chain(([k, v]) => fc.record({ [k]: candidateOf(v) })),
      );
    }
    case 'string':
      return fc.oneof(
        fc.constantFrom(
          'site',
          'a',
          'x.txt',
          '2025-01-31',
          '/webhooks/leads',
          'http://127.0.0.1:1',
          'mine',
          '',
          // Upload limits in rclone's spelling (settings' bwlimit and presets).
          'off',
          '2M',
        ),
        fc.string({ maxLength: 30 }),
      );
    case 'number':
      return fc.oneof(fc.integer({ min: -2, max: 100 }), fc.constantFrom(7, 30, 90, 5000, 65_535, 2 ** 31));
    case 'boolean':
      return fc.boolean();
    case 'enum':
      return fc.constantFrom(...Object.values(def.entries as Record<string, unknown>));
    case 'literal':
      return fc.constantFrom(...(def.values as unknown[]));
    case 'optional':
    case 'default':
      return fc.option(candidateOf(def.innerType), { nil: undefined });
    case 'nullable':
      return fc.option(candidateOf(def.innerType), { nil: null });
    case 'array':
      return fc.array(candidateOf(def.element), { maxLength: 3 });
    case 'union':
      return fc.oneof(...(def.options as z.ZodType[]).map(candidateOf));
    case 'pipe':
      return candidateOf(def.in);
    default:
      return plausible;
  }
}

/**
 * Commands left out of the accepted-payload run: they reach outside the test (start a server or
 * listen on a port, read or watch arbitrary paths, fetch arbitrary URLs). Their refusals are fuzzed.
 */
const OUTSIDE_EFFECTS = new Set<string>([
  'session.useSandbox',
  'session.connect',
  'settings.resetSandbox',
  'sync.folders.add',
  'sync.folders.update',
  'files.uploadPaths',
  'files.uploadFromUrl',
  'leads.configureReceiver',
  'leads.connectRelay',
  'kb.addBot',
  'kb.updateBot',
  'kb.syncNow',
]);

describe('every contract command under generated payloads', () => {
  it('answers a payload its schema refuses with VALIDATION naming the field', async () => {
    const watch = watchCrashes();
    try {
      for (const name of NAMES) {
        const schema = commands[name].request as z.ZodType;
        const keys = keysOf(schema);
        const bad = fc
          .oneof(anyValue, keys.length ? payloadFor(keys, anyValue) : anyValue)
          .filter((p) => !schema.safeParse(p ?? {}).success);
        await fc.assert(
          fc.asyncProperty(bad, async (payload) => {
            const reply = await app.dispatch(name, payload);
            expect(reply.ok, name).toBe(false);
            if (reply.ok) return;
            expect(reply.error.code, `${name}: ${reply.error.message}`).toBe('VALIDATION');
            const issue = schema.safeParse(payload ?? {}).error?.issues[0];
            if (issue?.path.length)
              expect(reply.error.message.startsWith(`${issue.path.join('.')}: `)).toBe(true);
            expect(reply.error.message.length).toBeGreaterThan(3);
            watch.check();
          }),
          { seed: FUZZ_SEED, numRuns: Math.round(60 * FUZZ_SCALE), endOnFailure: true },
        );
      }
    } finally {
      watch.stop();
    }
  });

  /** A ceiling that turns a command that never answers into a finding instead of a test timeout. */
  const ANSWER_WITHIN_MS = 20_000;
  const answered = <T>(p: Promise<T>) =>
    Promise.race([
      p,
      new Promise<null>((resolve) => setTimeout(() => resolve(null), ANSWER_WITHIN_MS).unref()),
    ]);

  /** Runs each command with payloads its schema accepts; returns the reply codes and every INTERNAL. */
  async function acceptedRun(label: string, perCommand: number) {
    const watch = watchCrashes();
    const codes = new Map<string, number>();
    const uncovered: string[] = [];
    const internal: string[] = [];
    // session.disconnect last: it ends the connection the other commands run against.
    const names = NAMES.filter((n) => !OUTSIDE_EFFECTS.has(n)).sort(
      (a, b) => Number(a === 'session.disconnect') - Number(b === 'session.disconnect'),
    );
    try {
      for (const name of names) {
        const schema = commands[name].request as z.ZodType;
        const seen = new Set<string>();
        const payloads = fc
          .sample(candidateOf(schema), { seed: FUZZ_SEED, numRuns: 400 })
          .filter((p) => schema.safeParse(p).success && !seen.has(inspect(p)) && seen.add(inspect(p)))
          .slice(0, Math.round(perCommand * FUZZ_SCALE));
        if (payloads.length === 0) uncovered.push(name);
        for (const payload of payloads) {
          const reply = await answered(app.dispatch(name, payload));
          if (reply === null) {
            internal.push(`${name}(${inspect(payload)}): no answer within ${ANSWER_WITHIN_MS} ms`);
            continue;
          }
          // A budget of one request a minute (a valid setting) would rightly slow every later call.
          if (name === 'settings.update') await app.call('settings.update', DEFAULT_SETTINGS);
          // So would the sandbox answering 429 for up to an hour (a valid test aid, issue 34): ended at once.
          if (name === 'sandbox.faults') await app.call('sandbox.faults', { rateLimitedSeconds: 0 });
          const code = reply.ok ? 'ok' : reply.error.code;
          codes.set(code, (codes.get(code) ?? 0) + 1);
          if (code === 'INTERNAL')
            internal.push(`${name}(${inspect(payload)}): ${reply.ok ? '' : reply.error.message}`);
          watch.check();
        }
      }
    } finally {
      watch.stop();
    }
    console.log(
      `contract fuzz (${label}), accepted payloads: ${[...codes].map(([c, n]) => `${c}x${n}`).join(' ')}`,
    );
    expect(internal).toEqual([]);
    expect(uncovered, 'commands the generator found no valid payload for').toEqual([]);
  }

  it('answers a payload its schema accepts with a reply or a domain error, never INTERNAL: first run', async () => {
    await acceptedRun('first run', 20);
  });

  it('the same, connected to the sandbox (the handlers reach the service)', async () => {
    expect(await app.call('session.useSandbox', {})).toMatchObject({ ok: true });
    // Found with FUZZ_SEED=11: a save that rebuilds the engine (new concurrency) waited for the new engine's
    // start, which waits on the network and, here, on a budget of one request a minute already spent.
    const saved = await answered(app.call('settings.update', { requestsPerMinute: 1, concurrency: 3 }));
    expect(saved).toMatchObject({ ok: true, value: { requestsPerMinute: 1, concurrency: 3 } });
    expect(await answered(app.call('settings.update', DEFAULT_SETTINGS))).toMatchObject({ ok: true });
    // Fewer each: every call that reaches the service spends the request budget (115 a minute).
    await acceptedRun('sandbox', 4);
  });
});
