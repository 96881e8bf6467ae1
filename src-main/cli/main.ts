// The `assets-sync` command. Each subcommand lives in its own module and is loaded on demand so
// that `reference-server` starts without loading the sync engine, and the reverse.
const [command, ...rest] = process.argv.slice(2);

type Command = { run(argv: string[]): Promise<number | undefined> };

/** Name, what it does (for --help), and its module. Order is the order of --help. */
const commands: Record<string, { about: string; load: () => Promise<Command> }> = {
  start: {
    about: 'open the app (Electron, or the headless shell where Electron is missing)',
    load: () => import('../launcher/start'),
  },
  web: { about: 'serve the app on 127.0.0.1 for a browser', load: () => import('../headless/main') },
  sync: {
    about:
      'sync a folder: sync DIR [--bucket B] [--mirror] [--once [--keep]] [--dedupe] [--dry-run] [--bwlimit RATE] [--concurrency N] [--polling]',
    load: () => import('./commands/sync'),
  },
  status: {
    about: 'synced folders and their files, from local state',
    load: () => import('./commands/status'),
  },
  files: {
    about:
      'live files from the local index: files [--bucket B] [--search T] [--sort S] [--csv] (more: files --help)',
    load: () => import('./commands/files'),
  },
  'import-urls': {
    about: 'upload from a list of source URLs: import-urls FILE [--check-ids]',
    load: () => import('./commands/import-urls'),
  },
  rm: { about: 'delete a file on the service: rm ID', load: () => import('./commands/rm') },
  account: { about: 'wallet, rent, arrears and pricing', load: () => import('./commands/account') },
  usage: { about: 'daily usage snapshots [--days N]', load: () => import('./commands/usage') },
  login: { about: 'store an API key in the system keychain', load: () => import('./commands/login') },
  logout: { about: 'forget the stored API key', load: () => import('./commands/logout') },
  'office-key': {
    about: "the office's join code (closes the office to desks without it): office-key new|set|show|clear",
    load: () => import('./commands/office-key'),
  },
  'reference-server': {
    about: 'run the embedded implementation of the service',
    load: () => import('../reference-server/main'),
  },
  relay: {
    about:
      'an always-on relay for lead deliveries: relay [--host H] [--port N] [--data-dir DIR] [--public-url URL]',
    load: () => import('../relay/main'),
  },
  leads: {
    about:
      'the leads inbox, pulled from the relay first: leads [--json] [--csv] [--open|--handled] [--search T]',
    load: () => import('./commands/leads'),
  },
  build: {
    about: 'build the renderer, the Electron bundle and the CLI bundle into out/',
    load: () => import('../launcher/build'),
  },
};

function help(): string {
  const width = Math.max(...Object.keys(commands).map((n) => n.length));
  const lines = Object.entries(commands).map(([name, c]) => `  ${name.padEnd(width)}  ${c.about}`);
  return `assets-sync <command> [options]\n\ncommands:\n${lines.join('\n')}\n\ncommon options: --base-url URL, --data-dir DIR, --json\n"assets-sync <command> --help" says every option of a command.`;
}

async function main(): Promise<number> {
  if (!command || command === '--help' || command === 'help') {
    console.log(help());
    return command ? 0 : 2;
  }
  const entry = commands[command];
  if (!entry) {
    console.error(`assets-sync: unknown command "${command}". Run "assets-sync --help" for the list.`);
    return 2;
  }
  const mod = await entry.load();
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
