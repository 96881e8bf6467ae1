import { hideCredentialsInText, hideUrlCredentials } from '../../../../src-shared/domain/url-credentials';
import { ok } from '../../../../src-shared/errors';
import { uploadFromSource } from '../../url-import/upload-source';
import { activityRecorder } from '../activity-record';
import type { AppContext } from '../context';
import { notConnected, plainError } from '../errors';
import type { Section } from '../section';

/**
 * An upload from a URL. The account's files are the remote index's (remote-files-section.ts): the
 * client's reply puts the new file there at once (the follower), so nothing else is written here.
 */
export function filesSection(ctx: AppContext): Section {
  const record = activityRecorder(ctx);
  return {
    name: 'files',
    handlers: {
      'files.uploadFromUrl': async (r) => {
        const live = ctx.session.live;
        if (!live) return notConnected();
        // A link of the service's own is sent under its name without the old stamp (upload-source.ts).
        const up = await uploadFromSource(live.client, {
          sourceUrl: r.sourceUrl,
          ...(r.bucket ? { bucket: r.bucket } : {}),
        });
        // Activity says what came in and where, or why not (issue 34: it said nothing of either), never
        // the link's password or signature (issue 32): the activity log is kept and shown.
        const from = hideUrlCredentials(r.sourceUrl);
        if (!up.ok) {
          record(
            'url-upload-failed',
            `Upload from ${from} refused: ${hideCredentialsInText(up.error.message)} (${up.error.code})`,
          );
          return { ok: false, error: plainError(up.error) };
        }
        record(
          'url-upload',
          `Uploaded ${up.value.name} from ${from} to bucket ${up.value.bucket}: live at ${up.value.url}.`,
        );
        return ok(up.value);
      },
    },
  };
}
