import { useRef, useState } from 'react';
import { BUCKET_RULE_MESSAGE, isValidBucket } from '../../../src-shared/domain/bucket';
import { extensionOf, isAllowedExtension } from '../../../src-shared/domain/extensions';
import { call } from '../../api/core-ref';
import { FormError, TextField } from '../../components/Field';
import { usePanelFocus } from '../../components/focus-return';
import { useAccount } from '../../stores/account-store';
import { useUi } from '../../stores/ui-store';

/** Checks what can be checked here (scheme, extension, bucket) so that no request is spent on a sure refusal. */
export function checkSourceUrl(raw: string, allowed: readonly string[] | undefined): string | null {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    return 'Enter a full address, such as https://example.com/brochure.pdf';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    return 'Only http:// and https:// addresses can be fetched.';
  const ext = extensionOf(decodeURIComponent(url.pathname));
  if (!ext) return 'The address must end in a file name with an extension, such as .pdf or .png.';
  if (!isAllowedExtension(ext, allowed)) return `.${ext} files are not accepted by the service.`;
  return null;
}

/** The address's host, for a sentence ("from example.com"); the address itself when it has none. */
function sourceHost(raw: string): string {
  try {
    return new URL(raw.trim()).host || raw.trim();
  } catch {
    return raw.trim();
  }
}

export function UploadFromUrl({ onClose }: { onClose(): void }) {
  const account = useAccount((s) => s.account?.value);
  const [url, setUrl] = useState('');
  const [bucket, setBucket] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const form = useRef<HTMLFormElement>(null);
  usePanelFocus(form, onClose);
  const target = bucket || account?.client.default_bucket || 'default';
  const urlProblem = url ? checkSourceUrl(url, account?.pricing.allowed_extensions) : null;
  const bucketProblem = isValidBucket(target) ? null : BUCKET_RULE_MESSAGE;

  return (
    <form
      ref={form}
      className="card stack"
      aria-label="Upload from a URL"
      onSubmit={async (e) => {
        e.preventDefault();
        if (urlProblem || bucketProblem) return;
        setBusy(true);
        setError(null);
        const r = await call('files.uploadFromUrl', { sourceUrl: url.trim(), bucket: target });
        setBusy(false);
        if (!r.ok) return setError(`${r.error.message} (${r.error.code})`);
        // Names what happened and where (issue 34): "notes.txt is live" said neither.
        useUi
          .getState()
          .toast(
            'info',
            `Uploaded ${r.value.name} from ${sourceHost(url)} to bucket ${r.value.bucket}: it is live.`,
          );
        onClose();
      }}
    >
      <h2>Upload from a URL</h2>
      <div className="row" style={{ alignItems: 'flex-end' }}>
        <TextField
          label="Address of the file"
          flex="3 1 18rem"
          type="url"
          value={url}
          onChange={setUrl}
          placeholder="https://example.com/brochure.pdf"
          aria-invalid={!!urlProblem}
        />
        <TextField
          label="Bucket"
          flex="1 1 9rem"
          value={bucket}
          placeholder={account?.client.default_bucket ?? 'default'}
          onChange={(v) => setBucket(v.trim())}
        />
      </div>
      <FormError message={urlProblem || bucketProblem || error} />
      <div className="row" style={{ justifyContent: 'flex-end' }}>
        <button type="button" className="btn ghost" onClick={onClose}>
          Cancel
        </button>
        <button
          type="submit"
          className="btn primary"
          disabled={busy || !url || !!urlProblem || !!bucketProblem}
        >
          {busy ? 'Fetching…' : 'Upload'}
        </button>
      </div>
    </form>
  );
}
