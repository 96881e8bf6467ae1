import { useState } from 'react';
import type { DryRunReportView, RequestOf } from '../../../src-shared/contract';
import { call } from '../../api/core-ref';
import { DryRunReport } from './DryRunReport';

/** "Preview" for a folder, added or not: runs the dry run and shows its report below the button. */
export function FolderPreview({
  request,
  disabled,
}: {
  request: RequestOf<'sync.preview'>;
  disabled?: boolean;
}) {
  const [report, setReport] = useState<DryRunReportView | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  return (
    <>
      <button
        type="button"
        className="btn small"
        disabled={busy || disabled}
        onClick={async () => {
          setBusy(true);
          setError(null);
          const r = await call('sync.preview', request);
          setBusy(false);
          if (r.ok) setReport(r.value);
          else setError(r.error.message);
        }}
      >
        {busy ? 'Previewing…' : 'Preview'}
      </button>
      {error ? <span className="error-text">{error}</span> : null}
      {report ? <DryRunReport report={report} /> : null}
    </>
  );
}
