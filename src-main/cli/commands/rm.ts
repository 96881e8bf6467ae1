import { appError } from '../../../src-shared/errors';
import { EXIT, parseCommand, withConnection } from '../common';

const USAGE = `assets-sync rm ID
  Deletes a remote file by its id (see "assets-sync files"): it stops being served and billed at once.`;

export async function run(argv: string[]): Promise<number> {
  const p = parseCommand('rm', argv, { options: {}, usage: USAGE, positionals: { min: 1, max: 1 } });
  if (!p.ok) return p.exitCode;
  const { common, out, positionals } = p;
  const text = positionals[0]!;
  const id = /^[1-9]\d{0,14}$/.test(text) ? Number(text) : Number.NaN;
  if (!Number.isSafeInteger(id)) {
    out.error(appError('VALIDATION', `A file id is a positive whole number, got "${text}".`));
    return EXIT.usage;
  }
  return withConnection(common, out, async (s) => {
    const r = await s.client.deleteFile(id);
    if (!r.ok) {
      out.error(r.error);
      return EXIT.failed;
    }
    out.emit(`Deleted file ${r.value.id}.`, { event: 'deleted', id: r.value.id, status: r.value.status });
    return EXIT.ok;
  });
}
