import { useEffect, useState } from 'react';
import { FILE_API_REQUESTS_PER_MINUTE } from '../../../src-shared/domain/limits';
import { timeLeftNow } from '../../../src-shared/domain/time-left';
import { timeLeftText } from '../../../src-shared/domain/words';
import { call } from '../../api/core-ref';
import { Icon } from '../../components/Icon';
import { SCROLL_REGION, ViewHeader } from '../../components/ViewHeader';
import { useAppStatus } from '../../stores/app-status';
import { useMachineNow } from '../../stores/clock-store';
import { useSync } from '../../stores/sync-store';
import { orToast } from '../../stores/ui-store';
import { OfficeLine } from '../office/OfficeLine';
import { AddFolderForm } from './AddFolderForm';
import { DuplicatesCard } from './DuplicatesCard';
import { FolderCard } from './FolderCard';
import { ProblemsPanel, QueuePanel } from './QueuePanel';

/** What bounds the one estimate of time left (src-shared/domain/time-left.ts), in words. */
const ETA_BOUND = {
  bytes: 'bound by bandwidth',
  requests: 'bound by the request limit',
  pace: 'at the pace so far',
  retry: 'until the next retry',
  schedule: 'bound by the schedule',
} as const;

/**
 * "44 min 10 s left (bound by the schedule)": counted down each second from when the core said it, since
 * under a pause or a 429's wait nothing new is said for minutes. Its own component: only it re-renders.
 */
function TimeLeft(p: { seconds: number; at: number | null | undefined; bound: keyof typeof ETA_BOUND }) {
  const now = useMachineNow(1_000);
  return (
    <span className="small muted" data-testid="eta-bound">
      {timeLeftText(timeLeftNow(p.seconds, p.at, now))} left ({ETA_BOUND[p.bound]})
    </span>
  );
}

export function FoldersView() {
  const overview = useSync((s) => s.overview);
  const queue = useSync((s) => s.queue);
  const [adding, setAdding] = useState(false);
  useEffect(() => {
    void useSync.getState().load();
  }, []);
  // The status model says what may be done and whether a time left may be said: files wait and may go
  // (no hold: the schedule, the wallet, offline, Pause all), not only files waiting for their retry.
  const status = useAppStatus();
  const allPaused =
    status.toggle === 'resume' || (!!overview?.folders.length && overview.folders.every((f) => f.paused));

  return (
    <>
      <ViewHeader title="Folders">
        {overview ? (
          <span
            className="small muted num"
            data-testid="budget"
            title={`The service allows ${FILE_API_REQUESTS_PER_MINUTE} requests a minute; the app keeps to ${overview.budget.perMinute}, a margin for retries and for the two clocks not agreeing to the second.`}
          >
            {/* "Requests 1/115 a minute" beside the documents' 120 (issue 34): both said, in words. */}
            Requests: {overview.budget.usedLastMinute} in the last minute, of the {overview.budget.perMinute}{' '}
            the app allows itself (the service allows {FILE_API_REQUESTS_PER_MINUTE})
          </span>
        ) : null}
        <OfficeLine />
        {overview?.bandwidth && overview.bandwidth.kind !== 'off' ? (
          <span className="small muted" data-testid="bandwidth-in-force">
            {overview.bandwidth.text}
          </span>
        ) : null}
        {overview?.etaSeconds && overview.etaBound && status.mayEstimate ? (
          <TimeLeft seconds={overview.etaSeconds} at={overview.etaAt} bound={overview.etaBound} />
        ) : null}
        {overview?.folders.length ? (
          <button
            type="button"
            className="btn"
            onClick={() => orToast(call(allPaused ? 'sync.resume' : 'sync.pause', {}))}
          >
            <Icon name={allPaused ? 'play' : 'pause'} /> {allPaused ? 'Resume all' : 'Pause all'}
          </button>
        ) : null}
        <button type="button" className="btn primary" onClick={() => setAdding(true)} disabled={adding}>
          <Icon name="plus" /> Add folder
        </button>
      </ViewHeader>
      <div className="content stack" {...SCROLL_REGION}>
        {adding ? <AddFolderForm onDone={() => setAdding(false)} /> : null}
        {overview && overview.folders.length === 0 && !adding ? (
          <div className="card empty">
            <h2>No folders yet</h2>
            <p>
              Add a folder and every file in it becomes a live link. You can also drop files anywhere on this
              window.
            </p>
            <button type="button" className="btn primary" onClick={() => setAdding(true)}>
              <Icon name="plus" /> Add folder
            </button>
          </div>
        ) : null}
        <div className="grid" style={{ gridTemplateColumns: 'repeat(auto-fill, minmax(22rem, 1fr))' }}>
          {overview?.folders.map((f) => (
            <FolderCard key={f.id} folder={f} />
          ))}
        </div>
        {queue ? <QueuePanel queue={queue} /> : null}
        {queue && overview ? <ProblemsPanel queue={queue} folders={overview.folders} /> : null}
        {overview?.folders.length ? <DuplicatesCard /> : null}
      </div>
    </>
  );
}
