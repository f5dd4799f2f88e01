import { describe, expect, it } from 'vitest';
import { parseCompactSnapshot, parseSnapshot, streamUrl, TopologyChangedError } from './stream.ts';

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

describe('parseCompactSnapshot', () => {
  const compact = {
    time: good.time,
    health: good.health,
    summary: good.summary,
    utilization: [0.99, null, 0, 0],
    bytesPerSecond: [12.38e9, null, 0, 0],
    top: good.links,
  };

  it('accepts a well-formed compact tick and checks the channel count', () => {
    const parsed = parseCompactSnapshot(JSON.stringify(compact), 4);
    expect(parsed.utilization[0]).toBe(0.99);
    // Counted where the message is decoded, so the page need not walk every channel again.
    expect(parsed.unknownChannels).toBe(1);
    expect(parsed.top[0]?.id).toBe('edge1/4->core2/1');
    expect(() => parseCompactSnapshot(JSON.stringify(compact), 6)).toThrow(/4 channels, the topology 6/);
  });

  it('names what is wrong with a bad compact tick', () => {
    expect(() => parseCompactSnapshot(JSON.stringify({ ...compact, utilization: 3 }))).toThrow(
      'utilization is not an array',
    );
    expect(() => parseCompactSnapshot(JSON.stringify({ ...compact, top: [{}] }))).toThrow('in top has no id');
    expect(() => parseCompactSnapshot(JSON.stringify({ ...compact, waitFraction: 1 }))).toThrow(
      'waitFraction is not an array',
    );
  });

  it('carries congestion and links down, unknown (not 0) when the server sends neither', () => {
    const parsed = parseCompactSnapshot(
      JSON.stringify({ ...compact, waitFraction: [0.5, null, 0, 0], linkDown: [2, 3] }),
      4,
    );
    // Unknown is NaN in the dashboard's per-channel arrays (ChannelValues), never 0.
    expect([...parsed.waitFraction]).toEqual([0.5, Number.NaN, 0, 0]);
    expect(parsed.utilization).toBeInstanceOf(Float64Array);
    expect(parsed.linkDown).toEqual([2, 3]);
    const old = parseCompactSnapshot(JSON.stringify(compact), 4);
    expect([...old.waitFraction]).toEqual([Number.NaN, Number.NaN, Number.NaN, Number.NaN]);
    expect(old.linkDown).toEqual([]);
  });

  it('builds the URL of each encoding', () => {
    expect(streamUrl('full')).toBe('/api/v1/stream?view=full');
    expect(streamUrl('compact')).toBe('/api/v1/stream?view=compact');
  });
});

describe('a tick of another topology version', () => {
  const grown = { ...good, health: { ...good.health, topologyVersion: 1 } };

  it('is no error but says the version to fetch, before the channel count is checked', () => {
    const compact = {
      ...grown,
      utilization: [0, 0, 0, 0, 0, 0],
      bytesPerSecond: [0, 0, 0, 0, 0, 0],
      top: [],
    };
    const attempt = () => parseCompactSnapshot(JSON.stringify(compact), 4, 0);
    expect(attempt).toThrow(TopologyChangedError);
    expect(attempt).toThrow(expect.objectContaining({ version: 1 }));
    expect(parseCompactSnapshot(JSON.stringify(compact), 6, 1).utilization).toHaveLength(6);
    expect(() => parseSnapshot(JSON.stringify(grown), 0)).toThrow(TopologyChangedError);
    expect(parseSnapshot(JSON.stringify(grown), 1).links).toHaveLength(1);
  });

  it('as loaded the version is 0 (absent from the message)', () => {
    expect(parseSnapshot(JSON.stringify(good), 0).links).toHaveLength(1);
    expect(() => parseSnapshot(JSON.stringify(good), 2)).toThrow(expect.objectContaining({ version: 0 }));
    expect(() =>
      parseSnapshot(JSON.stringify({ ...good, health: { ...good.health, topologyVersion: 'x' } }), 0),
    ).toThrow('topologyVersion is not a number');
  });
});
