import { useEffect, useState } from 'react';
import type { ReplyOf } from '../../../src-shared/contract';
import { call } from '../../api/core-ref';
import { useAccount } from '../../stores/account-store';
import { useSync } from '../../stores/sync-store';

export type RentSharesView = ReplyOf<'sync.folderRent'>;

/**
 * The folders' shares of the daily rent, as the core splits them (src-shared/domain/rent-shares.ts),
 * asked again whenever the account's /me or a folder's live files change: every window hears the
 * same events, so two windows show the same figure (issue 31).
 */
export function useRentShares(): RentSharesView | null {
  const [shares, setShares] = useState<RentSharesView | null>(null);
  const accountAt = useAccount((s) => s.account?.fetchedAt ?? null);
  const live = useSync((s) => s.overview?.folders.map((f) => `${f.id}:${f.counts.live}`).join(',') ?? '');
  // biome-ignore lint/correctness/useExhaustiveDependencies: the account's /me and the live counts are the triggers
  useEffect(() => {
    let gone = false;
    void call('sync.folderRent', {}).then((r) => {
      if (!gone && r.ok) setShares(r.value);
    });
    return () => {
      gone = true;
    };
  }, [accountAt, live]);
  return shares;
}
