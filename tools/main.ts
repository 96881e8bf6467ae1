// The benchmark and soak harnesses, apart from the product: `npm run bench:*` and `npm run soak` run
// `node tools/run.mjs <name>`, which runs this file from the CLI's bundle (out/cli/tools.mjs) or its
// source through tsx, as bin/assets-sync.mjs does for the CLI. They reach the core only through
// src-main/core/internal.ts (and the public index.ts) (test/support/layering-rules.ts).
const [name, ...rest] = process.argv.slice(2);

type Tool = { run(argv: string[]): Promise<number> };

/** Each harness by the name `npm run` gives it; loaded on demand so one never loads another's modules. */
const TOOLS: Record<string, () => Promise<Tool>> = {
  server: () => import('./bench/server'),
  remote: () => import('./bench/remote/main'),
  /** One step of bench remote in its own process (bench/remote/index-child.ts). */
  'remote-child': () => import('./bench/remote/index-child'),
  sync: () => import('./bench/sync/main'),
  office: () => import('./bench/office/main'),
  estimate: () => import('./bench/estimate'),
  webhooks: () => import('./bench/webhooks'),
  relay: () => import('./bench/relay'),
  soak: () => import('./soak/main'),
};

async function main(): Promise<number> {
  const load = name ? TOOLS[name] : undefined;
  if (!load) {
    console.error(
      `tools: name one of: ${Object.keys(TOOLS).join(', ')} (npm run bench:<name>, npm run soak)`,
    );
    return 2;
  }
  return (await load()).run(rest);
}

main().then(
  (code) => {
    if (code !== 0) process.exitCode = code;
  },
  (error: unknown) => {
    console.error(`tools: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    process.exitCode = 1;
  },
);
