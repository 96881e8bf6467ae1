import { parseServerFlags } from './options';
import { startReferenceServer } from './server';

/** `assets-sync reference-server [flags]`: prints exactly one JSON ready line on stdout, logs on stderr. */
export async function run(argv: string[]): Promise<number> {
  const parsed = parseServerFlags(argv);
  if (!parsed.ok) {
    console.error(`reference-server: ${parsed.message}`);
    return 2;
  }
  const server = await startReferenceServer(parsed.options);
  const ready = {
    event: 'ready',
    base_url: server.baseUrl,
    cdn_url: server.cdnUrl,
    admin_token: server.adminToken,
    ...(server.demo ? { demo: server.demo } : {}),
  };
  process.stdout.write(`${JSON.stringify(ready)}\n`);
  await new Promise<void>((resolve) => {
    const stop = () => {
      process.off('SIGTERM', stop);
      process.off('SIGINT', stop);
      server.close().then(resolve, (error: unknown) => {
        console.error(`reference-server: error while stopping: ${String(error)}`);
        resolve();
      });
    };
    process.on('SIGTERM', stop);
    process.on('SIGINT', stop);
  });
  return 0;
}
