import { createHash, randomBytes } from 'node:crypto';
import { copyFileSync, linkSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { mimeForExtension } from '../../../src-shared/domain/extensions';
import { PRIVATE_DIR_MODE } from '../../shared-node/private-files';
import type { Hosting } from './hosting';
import type { ClientRow } from './store/clients';

export interface SeedRequest {
  count: number;
  buckets: string[];
  extension: string;
  bytes: number;
  prefix: string;
}

/** One content object serves this many rows through hard links (ext4 allows 65,000 links a file). */
const LINKS_PER_OBJECT = 50_000;

/**
 * Many files at once for benchmarks and tests (not through 100,000 uploads at the limit): rows in
 * one transaction, each with its own object key, so that deleting one removes only its own object,
 * yet without writing 100,000 bodies: the keys are hard links to one small object (a copy where
 * the file system refuses links). Files are one second apart up to now (never before the client's
 * newest file: times rise with ids, as the listing's order says), spread over the buckets in turn; names are `<prefix><n>.<extension>`, n from 1 (oldest).
 */
export function seedFiles(
  hosting: Hosting,
  client: ClientRow,
  req: SeedRequest,
): { first_id: number; last_id: number; md5: string } {
  const body = Buffer.alloc(req.bytes, `seed ${client.id} ${req.prefix}\n`);
  const md5 = createHash('md5').update(body).digest('hex');
  const mime = mimeForExtension(req.extension);
  const now = hosting.ctx.clock.now();
  // Times rise with ids, as uploads' do: never before the client's newest file, never after now.
  const newest =
    (hosting.ctx.db.prepare('SELECT MAX(created_at) FROM files WHERE client_id = ?').pluck().get(client.id) as
      | number
      | null) ?? 0;
  const start = Math.max(newest, now - (req.count - 1) * 1000);
  const tag = randomBytes(2).toString('hex');
  let source: string | null = null;
  const place = (i: number): string => {
    const key = hosting.objects.newKey(client.id);
    const target = hosting.objects.pathOf(key);
    if (i % LINKS_PER_OBJECT === 0 || source === null) {
      mkdirSync(dirname(target), { recursive: true, mode: PRIVATE_DIR_MODE });
      writeFileSync(target, body);
      source = target;
      return key;
    }
    try {
      linkSync(source, target);
    } catch {
      copyFileSync(source, target);
    }
    return key;
  };

  let first = 0;
  let last = 0;
  hosting.ctx.db.transaction(() => {
    for (let i = 0; i < req.count; i++) {
      const createdAt = Math.min(now, start + i * 1000);
      const name = `${req.prefix}${i + 1}.${req.extension}`;
      const id = hosting.files.insert({
        client_id: client.id,
        bucket: req.buckets[i % req.buckets.length]!,
        name,
        url_name: `${createdAt.toString(36)}${tag}-${name}`,
        object_key: place(i),
        extension: req.extension,
        mime,
        size_bytes: req.bytes,
        hash: md5,
        created_at: createdAt,
      });
      if (i === 0) first = id;
      last = id;
    }
  })();
  return { first_id: first, last_id: last, md5 };
}
