import { describe, expect, it } from 'vitest';
import { reportOf } from './streamEvents.ts';

const tick = {
  time: '2025-01-01T00:00:00.000Z',
  health: { status: 'ok', store: 'embedded', lastSampleAgeSeconds: 0.4, topologyVersion: 2 },
  summary: {
    time: '2025-01-01T00:00:00.000Z',
    hostTransmitBytesPerSecond: 1e9,
    histogram: { isl: [0, 0, 0, 0, 0, 0, 0, 0, 0, 0], host: [0, 0, 0, 0, 0, 0, 0, 0, 0, 0] },
  },
  links: [],
};

describe('reportOf (what a stream message means, in the worker or on the page)', () => {
  it('a message of the drawn topology is a snapshot', () => {
    const report = reportOf({ view: 'full', version: 2 }, JSON.stringify(tick));
    expect(report.kind).toBe('message');
  });

  it('a message of another topology version asks for that version', () => {
    expect(reportOf({ view: 'full', version: 1 }, JSON.stringify(tick))).toEqual({
      kind: 'topology',
      version: 2,
    });
  });

  it('a message it cannot read says why', () => {
    expect(reportOf({ view: 'full' }, 'not json')).toEqual({
      kind: 'bad',
      message: 'stream message is not JSON',
    });
    expect(reportOf({ view: 'compact', channels: 4 }, JSON.stringify(tick))).toMatchObject({ kind: 'bad' });
  });
});
