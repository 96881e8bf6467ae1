import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createEventBus } from '../../src-main/core/app/event-bus';
import { chooseSecretStore } from '../../src-main/core/secrets/secret-stores';
import type { AnyEvent } from '../../src-shared/contract';
import { memorySecrets } from '../support/secrets';

/** Issue 32: no listener of the app's event bus or of the secret stores ends the process or hides itself. */
let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'guards-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('listeners that throw', () => {
  it("of the app's event bus: the others still get each event; logged once per event name, every one counted", () => {
    const told: string[] = [];
    const bus = createEventBus({
      onListenerError: (name, e) => told.push(`${name}: ${(e as Error).message}`),
    });
    const got: AnyEvent[] = [];
    bus.subscribe(() => {
      throw new Error('a destroyed window');
    });
    bus.subscribe((e) => got.push(e));
    for (let i = 0; i < 3; i++) bus.emit('office.changed', null as never);
    bus.emit('sync.queue', null as never);
    expect(got).toHaveLength(4);
    expect(bus.listenerFailures).toBe(4);
    expect(told).toEqual(['office.changed: a destroyed window', 'sync.queue: a destroyed window']);
    bus.close();
  });

  it("of the secret store's changes: the switch is done and said done; the failure is logged once and counted", () => {
    const lines: string[] = [];
    const store = chooseSecretStore(dir, {}, memorySecrets(), (l) => lines.push(l));
    store.onChange(() => {
      throw new Error('a section that was closed');
    });
    let after = 0;
    store.onChange(() => after++);
    const r = store.useEncryptedFile('correct horse battery staple');
    expect(r.ok).toBe(true);
    expect(store.unlock('correct horse battery staple').ok).toBe(true);
    expect(after).toBe(2);
    expect(store.listenerFailures).toBe(2);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/listener-failed.*a section that was closed/);
  });
});
