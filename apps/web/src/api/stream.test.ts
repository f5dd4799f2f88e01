import { describe, expect, it } from 'vitest';
import { parseSnapshot } from './stream.ts';

const good = {
  time: '2025-01-01T00:00:00.000Z',
  health: { status: 'ok', store: 'embedded', lastSampleAgeSeconds: 0.4 },
  summary: {
    time: '2025-01-01T00:00:00.000Z',
    hostTransmitBytesPerSecond: 12.38e9,
    histogram: { isl: [2, 0, 0, 0, 0, 0, 0, 0, 0, 2], host: [4, 0, 0, 0, 0, 0, 0, 0, 0, 4] },
  },
  links: [
    {
      id: 'edge1/4->core2/1',
      linkId: 'edge1/4--core2/1',
      kind: 'isl',
      from: { node: 'edge1', port: 4 },
      to: { node: 'core2', port: 1 },
      capacityBytesPerSecond: 12.5e9,
      utilization: 0.99,
      bytesPerSecond: 12.38e9,
      packetsPerSecond: 1.5e6,
      stale: false,
    },
  ],
};

describe('parseSnapshot', () => {
  it('accepts a well-formed tick', () => {
    expect(parseSnapshot(JSON.stringify(good)).links[0]?.utilization).toBe(0.99);
  });

  it('names what is wrong with a bad tick', () => {
    expect(() => parseSnapshot('not json')).toThrow('not JSON');
    expect(() => parseSnapshot(JSON.stringify({ ...good, links: {} }))).toThrow('links is not an array');
    expect(() =>
      parseSnapshot(JSON.stringify({ ...good, summary: { ...good.summary, histogram: null } })),
    ).toThrow('summary.histogram');
    expect(() => parseSnapshot(JSON.stringify({ ...good, links: [{ kind: 'isl' }] }))).toThrow('no id');
  });
});
