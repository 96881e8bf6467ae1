// The `assets-sync` command. Each subcommand lives in its own module and is loaded on demand so
// that `reference-server` starts without loading the sync engine, and the reverse.
const [command, ...rest] = process.argv.slice(2);

const commands: Record<string, () => Promise<{ run(argv: string[]): Promise<number | undefined> }>> = {
  'reference-server': () => import('../reference-server/main'),
  'bench-webhooks': () => import('./commands/bench-webhooks'),
  bench: () => import('./commands/bench'),
  web: () => import('../headless/main'),
  start: () => import('../launcher/start'),
  build: () => import('../launcher/build'),
  login: () => import('./commands/login'),
  logout: () => import('./commands/logout'),
  account: () => import('./commands/account'),
  usage: () => import('./commands/usage'),
  files: () => import('./commands/files'),
  rm: () => import('./commands/rm'),
  sync: () => import('./commands/sync'),
  status: () => import('./commands/status'),
};

async function main(): Promise<number> {
  if (!command || command === '--help' || command === 'help') {
    console.log(`assets-sync <command> [options]\n\ncommands:\n  ${Object.keys(commands).join('\n  ')}`);
    return command ? 0 : 2;
  }
  const load = commands[command];
  if (!load) {
    console.error(`assets-sync: unknown command "${command}". Run "assets-sync --help" for the list.`);
    return 2;
  }
  const mod = await load();
  return (await mod.run(rest)) ?? 0;
}

main().then(
  (code) => {
    if (code !== 0) process.exitCode = code;
  },
  (error: unknown) => {
    console.error(`assets-sync: ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = 1;
  },
);
