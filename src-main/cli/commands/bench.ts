/** `assets-sync bench <name>`: the benchmarks that have a name here (`npm run bench:server`). */
const BENCHES: Record<string, () => Promise<{ run(argv: string[]): Promise<number> }>> = {
  server: () => import('./bench-server'),
  remote: () => import('./bench-remote'),
  /** One step of bench remote in its own process (bench-remote/index-child.ts). */
  'remote-child': () => import('./bench-remote/index-child'),
  sync: () => import('./bench-sync'),
  office: () => import('./bench-office'),
  soak: () => import('./soak'),
};

export async function run(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  const load = name ? BENCHES[name] : undefined;
  if (!load) {
    console.error(`bench: name one of: ${Object.keys(BENCHES).join(', ')}`);
    return 2;
  }
  return (await load()).run(rest);
}
