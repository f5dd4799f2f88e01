import { describe, expect, it } from 'vitest';
import { isCompact, type LinkDirectionState } from '../api/types.ts';
import { pastSnapshot } from './historySnapshot.ts';
import { channelIndexById } from './route.ts';
import { HEALTH_OK, linkState } from './testFixtures.ts';
import { twoTier } from './testTopologies.ts';

const summary = {
  time: '2026-01-01T00:00:10.000Z',
  hostTransmitBytesPerSecond: 12.4e9,
  histogram: { isl: new Array(10).fill(0), host: new Array(10).fill(0) },
  staleLinks: 0,
};
const health = HEALTH_OK;

function sample(id: string, utilization: number | null, linkUp: boolean | null = true): LinkDirectionState {
  return linkState(id, { linkId: id, utilization, linkUp, transmitWaitFraction: 0 });
}

describe('past snapshot', () => {
  it('keeps the full encoding for drawable fabrics', () => {
    const links = [sample('a/1->b/1', 0.5)];
    const snap = pastSnapshot({ time: summary.time, links }, summary, health, null);
    expect(isCompact(snap)).toBe(false);
    expect(snap.summary.hostTransmitBytesPerSecond).toBe(12.4e9);
  });

  it('places each direction at its channel of the compact encoding; missing ones unknown', () => {
    const topology = twoTier(2, 2, 2);
    const index = channelIndexById(topology);
    const [first, second] = [...index.keys()];
    if (!first || !second) throw new Error('test topology has no links');
    const links = [sample(first, 0.97), sample(second, null, false)];
    const snap = pastSnapshot({ time: summary.time, links }, summary, health, {
      channelIndex: index,
      channels: topology.links.length * 2,
    });
    if (!isCompact(snap)) throw new Error('expected compact');
    expect(snap.utilization).toHaveLength(topology.links.length * 2);
    expect(snap.utilization[index.get(first) ?? -1]).toBe(0.97);
    expect(snap.utilization[index.get(second) ?? -1]).toBeNull();
    expect(snap.linkDown).toEqual([index.get(second)]);
    expect(snap.utilization.filter((u) => u !== null)).toHaveLength(1);
    expect(snap.top[0]?.id).toBe(first);
    // History keeps no error counters: every channel's are unknown.
    expect(snap.errorsUnknown).toBe(topology.links.length * 2);
  });
});
