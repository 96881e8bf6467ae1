import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { readPrinted } from '../../src-main/core/leads/relay/relay-settings';
import { RelayReadyLineSchema } from '../../src-shared/api/relay';

const root = join(import.meta.dirname, '..', '..');
const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** Every `npm run … relay …` command line the README and docs/relay.md tell a person to type. */
function documentedCommands(): string[] {
  const found: string[] = [];
  for (const file of ['README.md', join('docs', 'relay.md')]) {
    const text = readFileSync(join(root, file), 'utf8');
    for (const m of text.matchAll(/npm run(?: --?[a-z]+)* relay(?= |$|`)[^`\n]*/gm)) found.push(m[0].trim());
  }
  return found;
}

/** The first line the command writes on standard output, its port and data folder made local. */
async function firstStdoutLine(command: string): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'relay-doc-'));
  dirs.push(dir);
  const words = command
    .replace(/--(port|data-dir|host) \S+/g, '')
    .split(/\s+/)
    .filter(Boolean);
  if (!words.includes('--')) words.push('--');
  words.push('--port', '0', '--host', '127.0.0.1', '--data-dir', join(dir, 'relay'));
  const child = spawn(words[0]!, words.slice(1), {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  try {
    return await new Promise<string>((resolve, reject) => {
      let out = '';
      child.stdout.on('data', (d) => {
        out += d;
        const end = out.indexOf('\n');
        if (end >= 0) resolve(out.slice(0, end));
      });
      child.once('exit', (code) => reject(new Error(`${command} exited ${code} before a line: ${stderr}`)));
    });
  } finally {
    // npm and the relay under it: the whole group.
    if (child.pid) process.kill(-child.pid, 'SIGTERM');
  }
}

// Issue 34: `npm run relay` printed npm's banner ("> assets-sync@0.1.0 relay") before the ready line,
// so the first line of standard output, the one a script or a person reads, was not the JSON.
it('the relay started as the README and docs/relay.md say prints its ready line first', async () => {
  const commands = documentedCommands();
  expect(commands.length).toBeGreaterThan(0);
  for (const command of commands) {
    const line = await firstStdoutLine(command);
    let json: unknown;
    try {
      json = JSON.parse(line);
    } catch {
      throw new Error(`"${command}" printed ${JSON.stringify(line)} first, not the ready line`);
    }
    expect(RelayReadyLineSchema.safeParse(json).success, `${command}: ${line}`).toBe(true);
    expect(json).toMatchObject({ event: 'ready' });
  }
});

// A person who ran plain `npm run relay` in a terminal and pasted the whole output, banner included,
// into Leads → "Receive through a relay" is understood too.
it('what was pasted may carry npm banner lines around the ready line', () => {
  const pasted = [
    '',
    '> assets-sync@0.1.0 relay',
    '> exec node bin/assets-sync.mjs relay --public-url https://leads.example.com',
    '',
    '{"event":"ready","url":"http://127.0.0.1:8790","webhook_url":"https://leads.example.com/hooks/wh_x","token":"rlt_y","public_url":"https://leads.example.com"}',
  ].join('\n');
  expect(readPrinted(pasted)).toEqual({
    ok: true,
    value: {
      url: 'https://leads.example.com',
      token: 'rlt_y',
      webhookUrl: 'https://leads.example.com/hooks/wh_x',
    },
  });
});
