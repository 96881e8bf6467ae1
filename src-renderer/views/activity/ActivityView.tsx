import { useEffect } from 'react';
import { withoutCodes } from '../../../src-shared/domain/words';
import { SCROLL_REGION, ViewHeader } from '../../components/ViewHeader';
import { When } from '../../components/When';
import { useSync } from '../../stores/sync-store';

/** A line's level as a word: the badge showed the log's own keys ("info", "warn"). */
const LEVEL_WORD: Record<string, string> = { info: 'Info', warn: 'Warning', error: 'Error' };

export function ActivityView() {
  const items = useSync((s) => s.activity);
  useEffect(() => {
    void useSync.getState().loadActivity();
  }, []);
  return (
    <>
      <ViewHeader title="Activity" />
      <div className="content" {...SCROLL_REGION}>
        <section className="card" style={{ padding: 0 }}>
          {items.length === 0 ? (
            <div className="empty">Nothing has happened yet.</div>
          ) : (
            <table className="table" aria-label="Activity log">
              <tbody>
                {items.map((a) => (
                  <tr key={a.id}>
                    <td className="small muted num" style={{ whiteSpace: 'nowrap', width: '1%' }}>
                      <When at={a.at} relative={false} />
                    </td>
                    <td style={{ width: '1%' }}>
                      <span
                        className={`badge ${a.level === 'error' ? 'danger' : a.level === 'warn' ? 'warn' : ''}`}
                      >
                        {LEVEL_WORD[a.level] ?? a.level}
                      </span>
                    </td>
                    <Message text={a.message} />
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </section>
      </div>
    </>
  );
}

/** The line in words; a code it carried ("(STORAGE-FAILED)") is in its tooltip, not the sentence. */
function Message({ text }: { text: string }) {
  const m = withoutCodes(text);
  return (
    <td style={{ overflowWrap: 'anywhere' }} title={m.codes.length ? m.codes.join(', ') : undefined}>
      {m.text}
    </td>
  );
}
