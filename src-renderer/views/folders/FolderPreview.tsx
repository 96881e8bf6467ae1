import { type ReactNode, useState } from 'react';
import type { DryRunReportView, RequestOf } from '../../../src-shared/contract';
import { call } from '../../api/core-ref';
import { DryRunReport } from './DryRunReport';

/**
 * "Preview" for a folder, added or not: the button that runs the dry run, and its report. The two are
 * placed apart by the caller: the button stays in its row of actions, where it was, and the report
 * goes under that row (inside the row it took the row's width and pushed the button to the far end).
 */
export function useFolderPreview(
  request: RequestOf<'sync.preview'>,
  disabled?: boolean,
): { button: ReactNode; report: ReactNode } {
  const [report, setReport] = useState<DryRunReportView | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const button = (
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
  );
  return {
    button,
    report: (
      <>
        {error ? (
          <span className="error-text" role="alert">
            {error}
          </span>
        ) : null}
        {report ? <DryRunReport report={report} /> : null}
      </>
    ),
  };
}
