import { parseArgs } from 'node:util';
import { stopChildren } from '../shared/processes';
import { printReport } from '../shared/recorded';
import type { Row } from '../shared/table';
import { rowsOf, runScenario, SCENARIOS } from './rows';

/**
 * `npm run bench:office`: desks behind one address (separate `assets-sync sync` processes, each with its own
 * data folder, account and key) sharing the reference server's 120 requests a minute (docs/office.md and
 * docs/benchmarks.md). Each row is minutes long by nature (the floor is the requests / 120 a minute):
 * `--row NAME` runs one (repeat it, or name several with commas), `--list` names them.
 */

const USAGE = `npm run bench:office -- [--row NAME[,NAME...]]... [--files N] [--list]
  rows: ${SCENARIOS.map((s) => s.name).join(', ')} (default: all, about 45 minutes)`;

export async function run(argv: string[]): Promise<number> {
  let values: { row?: string[]; files?: string; list?: boolean; help?: boolean };
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        row: { type: 'string', multiple: true },
        files: { type: 'string' },
        list: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (e) {
    console.error(`bench office: ${(e as Error).message}\n${USAGE}`);
    return 2;
  }
  if (values.help || values.list) {
    console.log(USAGE);
    return 0;
  }
  const files = values.files === undefined ? 60 : Number(values.files);
  if (!Number.isInteger(files) || files < 1 || files > 1000) {
    console.error('bench office: --files takes a whole number from 1 to 1000');
    return 2;
  }
  const names = (values.row ?? [])
    .flatMap((r) => r.split(','))
    .map((r) => r.trim())
    .filter(Boolean);
  const unknown = names.filter((n) => !SCENARIOS.some((s) => s.name === n));
  if (unknown.length > 0) {
    console.error(`bench office: no row ${unknown.join(', ')}\n${USAGE}`);
    return 2;
  }
  const chosen = names.length > 0 ? SCENARIOS.filter((s) => names.includes(s.name)) : SCENARIOS;
  const rows: Row[] = [];
  const stop = () => void stopChildren().then(() => process.exit(130));
  process.once('SIGINT', stop);
  try {
    for (const s of chosen) {
      console.error(`bench office: ${s.name} (${s.desks} desks, ${files} files each)...`);
      const m = await runScenario(s, files, (l) => console.error(l));
      console.error(`  ${JSON.stringify(m)}`);
      rows.push(...rowsOf(s, m));
    }
  } finally {
    await stopChildren();
    process.off('SIGINT', stop);
  }
  printReport('bench:office', `office benchmark (${files} files a desk; counted at the server)`, rows);
  return rows.every((r) => r.pass || r.skipped) ? 0 : 1;
}
