import { ok } from '../../../../src-shared/errors';
import type { AppContext } from '../context';
import { notConnected, plainError } from '../errors';
import type { Section } from '../section';

/**
 * An upload from a URL. The account's files are the remote index's (remote-files-section.ts): the
 * client's reply puts the new file there at once (the follower), so nothing else is written here.
 */
export function filesSection(ctx: AppContext): Section {
  return {
    name: 'files',
    handlers: {
      'files.uploadFromUrl': async (r) => {
        const live = ctx.session.live;
        if (!live) return notConnected();
        const up = await live.client.uploadFromUrl({
          sourceUrl: r.sourceUrl,
          ...(r.bucket ? { bucket: r.bucket } : {}),
        });
        if (!up.ok) return { ok: false, error: plainError(up.error) };
        return ok(up.value);
      },
    },
  };
}
