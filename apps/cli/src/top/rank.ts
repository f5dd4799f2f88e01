import { naturalCompare } from '@fabscope/contracts/names';
import type { LinkState } from './api-types.ts';

/** Highest packet rate first; unknown rates last, as the API orders unknowns. */
export function sortByPackets(links: LinkState[]): LinkState[] {
  return [...links].sort((a, b) => {
    const pa = a.packetsPerSecond ?? -1;
    const pb = b.packetsPerSecond ?? -1;
    return pb - pa || naturalCompare(a.id, b.id);
  });
}

/** Utilization ranking, ties at 0.1 % broken by wait: of two full links the waiting one is the bottleneck. */
export function rankByUtilization(links: LinkState[], order: 'desc' | 'asc'): LinkState[] {
  const shown = (u: number | null) => (u === null ? null : Math.round(u * 1000));
  return [...links].sort((a, b) => {
    const ua = shown(a.utilization);
    const ub = shown(b.utilization);
    if (ua === null || ub === null) return ua === ub ? naturalCompare(a.id, b.id) : ua === null ? 1 : -1;
    if (ua !== ub) return order === 'desc' ? ub - ua : ua - ub;
    return (b.transmitWaitFraction ?? -1) - (a.transmitWaitFraction ?? -1) || naturalCompare(a.id, b.id);
  });
}
