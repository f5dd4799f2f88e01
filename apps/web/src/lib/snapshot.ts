import type { LinkDirectionState } from '@fabscope/contracts';
import type { LiveSnapshot } from '../api/types.ts';
import { countUnknown, isCompact } from './channelValues.ts';
import { onePer } from './onePer.ts';

/** Link directions without a fresh sample in a stream message; counted once per message. */
export const staleDirectionCount = onePer((snapshot: LiveSnapshot): number => {
  if (!isCompact(snapshot)) return snapshot.links.filter((l) => l.stale).length;
  return snapshot.unknownChannels ?? countUnknown(snapshot.utilization);
});

export interface RankableLinks {
  /** The link directions the ranked table chooses from. */
  links: LinkDirectionState[];
  /** Link directions in the fabric. */
  total: number;
  /** True when `links` holds only the busiest directions the compact stream sends. */
  partial: boolean;
}

/** What the busiest-links table ranks: every direction (full stream) or the streamed top (compact). */
export function rankableLinks(snapshot: LiveSnapshot): RankableLinks {
  if (isCompact(snapshot)) {
    return { links: snapshot.top, total: snapshot.utilization.length, partial: true };
  }
  return { links: snapshot.links, total: snapshot.links.length, partial: false };
}
