import { useEffect, useState } from 'react';
import type { FolderView, IgnoredFiles as Ignored } from '../../../src-shared/contract';
import { call } from '../../api/core-ref';
import { plural } from '../../lib/plural';

/**
 * The files a folder's ignore rules leave out (dotfiles, temporary files, the user's patterns), each with
 * the rule that ignored it, so a user can find out why a file never went up. Collapsed by default; read
 * again whenever the folder's counts move (a scan or a change may have found more).
 */
export function IgnoredFiles({ folder }: { folder: FolderView }) {
  const [list, setList] = useState<Ignored | null>(null);
  const c = folder.counts;
  const stamp = `${c.live}/${c.pending}/${c.failed}/${c.skipped}`;
  useEffect(() => {
    let live = true;
    void call('sync.folders.ignored', { id: folder.id }).then((r) => {
      if (live && r.ok && stamp) setList(r.value);
    });
    return () => {
      live = false;
    };
  }, [folder.id, stamp]);
  if (!list || list.count === 0) return null;
  const more = list.count - list.examples.length;
  return (
    <details className="small" data-testid="ignored-files">
      <summary className="muted" style={{ cursor: 'pointer' }}>
        {plural(list.count, 'ignored item')}: never uploaded, by the folder's ignore rules
      </summary>
      <ul style={{ margin: '0.4rem 0 0', paddingLeft: '1.1rem' }}>
        {list.examples.map((e) => (
          <li key={e.path} data-testid="ignored-row" style={{ overflowWrap: 'anywhere' }}>
            <span className="mono">
              {e.path}
              {e.isDirectory ? '/' : ''}
            </span>{' '}
            <span className="muted">— {e.rule}</span>
          </li>
        ))}
      </ul>
      {more > 0 ? <div className="muted">and {more.toLocaleString('en')} more not listed</div> : null}
    </details>
  );
}
