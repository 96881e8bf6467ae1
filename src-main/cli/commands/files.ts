import { type IndexQuery, IndexQuerySchema } from '../../../src-shared/contract/remote-index';
import { invalidBucketMessage, isValidBucket } from '../../../src-shared/domain/bucket';
import { formatBytes } from '../../../src-shared/domain/bytes';
import { formatServiceTime } from '../../../src-shared/domain/time-format';
import { appError } from '../../../src-shared/errors';
import { createRemoteIndex, csvHeader, csvRow, exportRow, serviceIdentity } from '../../core';
import { EXIT, parseCommand, withConnection } from '../common';
import { forTerminal } from '../terminal-text';

const USAGE = `assets-sync files [--bucket B] [--search TEXT] [--ext pdf,png] [--type image] [--sort date|name|size|bucket]
                   [--order asc|desc] [--limit N] [--csv] [--no-refresh]
  The account's live files from the local index: id, bucket, size, date (IST), name and CDN URL, newest
  first unless sorted. The index is refreshed first by reading only the listing's new pages (a second run
  costs one request); --no-refresh reads it without any request.
  --search     a part of the name, any case
  --ext        extensions, comma separated     --type   a media type or its first part (image, video/mp4)
  --csv        CSV on standard output: id,name,bucket,url,size,md5,created_at,mime (created_at in ISO 8601 with +05:30, and its header says so)
  --json       one JSON object per file (the same fields), then a summary`;

export async function run(argv: string[]): Promise<number> {
  const p = parseCommand('files', argv, {
    options: {
      bucket: { type: 'string' },
      search: { type: 'string' },
      ext: { type: 'string' },
      type: { type: 'string' },
      sort: { type: 'string' },
      order: { type: 'string' },
      limit: { type: 'string' },
      csv: { type: 'boolean', default: false },
      'no-refresh': { type: 'boolean', default: false },
    },
    usage: USAGE,
    readOnly: true,
  });
  if (!p.ok) return p.exitCode;
  const { common, out, values } = p;
  const bucket = values.bucket;
  if (bucket !== undefined && !isValidBucket(bucket)) {
    out.error(appError('BUCKET-INVALID', invalidBucketMessage(bucket)));
    return EXIT.usage;
  }
  if (values.csv && common.json) {
    out.error(appError('USAGE', 'Choose --csv or --json, not both.'));
    return EXIT.usage;
  }
  let limit: number | null = null;
  if (values.limit !== undefined) {
    if (!/^\d+$/.test(values.limit) || Number(values.limit) < 1) {
      out.error(
        appError('VALIDATION', `--limit must be a whole number of 1 or more, not "${values.limit}".`),
      );
      return EXIT.usage;
    }
    limit = Number(values.limit);
  }
  const filter = {
    ...(bucket !== undefined ? { bucket } : {}),
    ...(values.search !== undefined ? { search: values.search } : {}),
    ...(values.ext !== undefined ? { extensions: values.ext.split(',').filter((e) => e.trim() !== '') } : {}),
    ...(values.type !== undefined ? { type: values.type } : {}),
  };
  const query = {
    ...filter,
    ...(values.sort ? { sort: values.sort } : {}),
    ...(values.order ? { order: values.order } : {}),
  } as IndexQuery;
  const checked = IndexQuerySchema.safeParse(query);
  if (!checked.success) {
    const issue = checked.error.issues[0]!;
    const flag = { extensions: 'ext' }[String(issue.path[0])] ?? String(issue.path[0]);
    out.error(appError('VALIDATION', `--${flag}: ${issue.message}`));
    return EXIT.usage;
  }

  return withConnection(common, out, async (s) => {
    const service = serviceIdentity(s.connection, common.dataDir);
    const remote = createRemoteIndex(s.state.db);
    let account = remote.lastAccount(service);
    if (values['no-refresh']) {
      if (!account) {
        out.error(
          appError(
            'NO-INDEX',
            'No index of this account yet: run "assets-sync files" without --no-refresh once.',
          ),
        );
        return EXIT.failed;
      }
    } else {
      const me = await s.client.me();
      if (!me.ok) {
        out.error(me.error);
        return EXIT.failed;
      }
      account = { service, clientId: me.value.client.id };
      const refreshed = await remote.forAccount(account).refresh(s.client, { lane: 'user' });
      if (!refreshed.ok) {
        out.error(refreshed.error);
        return EXIT.failed;
      }
      const r = refreshed.value;
      out.note(
        `Index refreshed: ${r.requests} listing request${r.requests === 1 ? '' : 's'}, ${r.added} new, ${r.removed} gone.`,
      );
    }
    const index = remote.forAccount(account);
    const summary = index.summary(filter);
    if (!summary.ok) {
      out.error(summary.error);
      return EXIT.usage;
    }
    if (values.csv) process.stdout.write(csvHeader());
    let shown = 0;
    for (const f of index.each(query)) {
      if (limit !== null && shown >= limit) break;
      shown++;
      if (values.csv) process.stdout.write(csvRow(f));
      else
        out.emit(
          `${String(f.id).padStart(7)}  ${f.bucket}  ${formatBytes(f.size).padStart(9)}  ${formatServiceTime(f.createdAt)}  ${forTerminal(f.name)}  ${forTerminal(f.url)}`,
          { event: 'file', ...exportRow(f) },
        );
    }
    const { count, bytes } = summary.value;
    const text = `${count} files, ${formatBytes(bytes)}${bucket ? ` in bucket "${bucket}"` : ''}${shown < count ? ` (${shown} shown)` : ''}`;
    if (values.csv) out.note(text);
    else out.emit(text, { event: 'files.summary', count, bytes, ...filter });
    return EXIT.ok;
  });
}
