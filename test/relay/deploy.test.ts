import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { parseRelayFlags } from '../../src-main/relay/main';

// The systemd unit and the Dockerfile run the relay: their flags must be ones the relay takes, or
// the service would fail at its first start. Docker cannot run here (no daemon), so the Dockerfile's
// command is checked against the flag parser; systemd-analyze checks the unit where it exists.
const deploy = join(import.meta.dirname, '..', '..', 'deploy', 'relay');

it("the unit's and the image's relay flags are ones the relay takes", () => {
  const unit = readFileSync(join(deploy, 'assets-sync-relay.service'), 'utf8');
  const exec = /^ExecStart=\S+ \S+ relay (.*)$/m.exec(unit)?.[1];
  expect(exec).toBeDefined();
  expect(parseRelayFlags(exec!.split(/\s+/), {})).toMatchObject({
    ok: true,
    flags: { host: '127.0.0.1', port: 8790 },
  });

  const docker = readFileSync(join(deploy, 'Dockerfile'), 'utf8');
  const entry = JSON.parse(/^ENTRYPOINT (\[.*\])$/m.exec(docker)![1]!) as string[];
  expect(entry.slice(0, 3)).toEqual(['node', 'bin/assets-sync.mjs', 'relay']);
  const args = [...entry.slice(3), '--public-url', 'https://leads.example.com'];
  expect(parseRelayFlags(args, {})).toMatchObject({ ok: true, flags: { dataDir: '/data', port: 8790 } });
  expect(docker).toMatch(/HEALTHCHECK .*\/healthz/);
});

it('systemd-analyze verifies the unit', (ctx) => {
  if (spawnSync('systemd-analyze', ['--version']).status !== 0) {
    console.log('systemd-analyze is not installed here: the unit is not verified');
    return ctx.skip();
  }
  // Throws with systemd's own message on a bad directive or a missing executable.
  execFileSync('systemd-analyze', ['verify', join(deploy, 'assets-sync-relay.service')], { stdio: 'pipe' });
});
