import { describe, expect, it } from 'vitest';
import type { CompactSnapshot, FabricSnapshot, LinkSample } from '../api/types.ts';
import { rankableLinks, staleDirectionCount } from './snapshot.ts';

const base = {
  time: 't',
  health: { status: 'ok', store: 'embedded' as const, lastSampleAgeSeconds: 0.5 },
  summary: { time: 't', hostTransmitBytesPerSecond: 0, histogram: { isl: [], host: [] } },
};

function sample(id: string, utilization: number | null): LinkSample {
  return {
    id,
    linkId: id,
    kind: 'isl',
    from: { node: 'a', port: 1 },
    to: { node: 'b', port: 1 },
    capacityBytesPerSecond: 12.5e9,
    utilization,
    bytesPerSecond: utilization === null ? null : utilization * 12.5e9,
    packetsPerSecond: null,
    transmitWaitFraction: null,
    linkUp: null,
    stale: utilization === null,
  };
}

describe('snapshot helpers', () => {
  const full: FabricSnapshot = { ...base, links: [sample('x', 0.5), sample('y', null)] };
  const compact: CompactSnapshot = {
    ...base,
    utilization: [0.5, null, null, 0],
    bytesPerSecond: [6e9, null, null, 0],
    waitFraction: [0, null, null, 0],
    linkDown: [],
    top: [sample('x', 0.5)],
  };

  it('counts stale directions in either encoding', () => {
    expect(staleDirectionCount(full)).toBe(1);
    expect(staleDirectionCount(compact)).toBe(2);
  });

  it('ranks every direction of the full stream, and the streamed top of the compact one', () => {
    expect(rankableLinks(full)).toMatchObject({ total: 2, partial: false });
    expect(rankableLinks(full).links).toHaveLength(2);
    expect(rankableLinks(compact)).toMatchObject({ total: 4, partial: true });
    expect(rankableLinks(compact).links.map((l) => l.id)).toEqual(['x']);
  });
});
