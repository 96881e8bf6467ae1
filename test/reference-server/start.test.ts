import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { startReferenceServer } from '../../src-main/reference-server/server';

it('a start that cannot listen leaves a new data folder new: the next start still announces the demo', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'ref-start-'));
  const squatter = createServer();
  await new Promise<void>((resolve) => squatter.listen(0, '127.0.0.1', resolve));
  const port = (squatter.address() as { port: number }).port;
  try {
    await expect(startReferenceServer({ port, dataDir })).rejects.toThrow(/EADDRINUSE/);
    const server = await startReferenceServer({ port: 0, dataDir });
    expect(server.demo?.client_id).toBe(1);
    expect(typeof server.demo?.api_key).toBe('string');
    await server.close();
  } finally {
    await new Promise((resolve) => squatter.close(resolve));
    rmSync(dataDir, { recursive: true, force: true });
  }
});
