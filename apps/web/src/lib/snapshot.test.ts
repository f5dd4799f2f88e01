import type { FullStreamMessage, LinkDirectionState } from '@fabscope/contracts';
import { describe, expect, it } from 'vitest';
import type { CompactSnapshot } from '../api/types.ts';
import { HEALTH_OK, linkState, summaryOf } from '../test/testFixtures.ts';
import { channelValuesOf } from './channelValues.ts';
import { rankableLinks, staleDirectionCount } from './snapshot.ts';

const base = { time: 't', health: HEALTH_OK, summary: summaryOf() };

function sample(id: string, utilization: number | null): LinkDirectionState {
  return linkState(id, { linkId: id, utilization, linkUp: null });
}

describe('snapshot helpers', () => {
  const full: FullStreamMessage = { ...base, links: [sample('x', 0.5), sample('y', null)] };
  const compact: CompactSnapshot = {
    ...base,
    utilization: channelValuesOf([0.5, null, null, 0]),
    bytesPerSecond: channelValuesOf([6e9, null, null, 0]),
    waitFraction: channelValuesOf([0, null, null, 0]),
    linkDown: [],
    errors: [],
    errorsUnknown: 0,
    top: [sample('x', 0.5)],
  };

  it('counts stale directions in either encoding', () => {
    expect(staleDirectionCount(full)).toBe(1);
    expect(staleDirectionCount(compact)).toBe(2);
  });

  it('takes the count the decoder made instead of reading every channel again', () => {
    const decoded: CompactSnapshot = {
      ...compact,
      unknownChannels: 7,
      utilization: new Proxy(compact.utilization, {
        get: (target, key) => {
          if (typeof key === 'string' && /^\d+$/.test(key)) throw new Error('a channel was read');
          return Reflect.get(target, key);
        },
      }),
    };
    expect(staleDirectionCount(decoded)).toBe(7);
  });

  it("counts a message's stale directions once, however many panels ask", () => {
    let reads = 0;
    const values = channelValuesOf([0.5, null, 0.2, null, null]);
    const utilization = new Proxy(values, {
      get: (target, key) => {
        if (typeof key === 'string' && /^\d+$/.test(key)) reads++;
        const value = Reflect.get(target, key, target);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    const message: CompactSnapshot = { ...compact, utilization };
    expect(staleDirectionCount(message)).toBe(3);
    expect(reads).toBe(5);
    expect(staleDirectionCount(message)).toBe(3);
    expect(reads).toBe(5);
    // Another message is counted on its own.
    expect(staleDirectionCount({ ...message })).toBe(3);
  });

  it('ranks every direction of the full stream, and the streamed top of the compact one', () => {
    expect(rankableLinks(full)).toMatchObject({ total: 2, partial: false });
    expect(rankableLinks(full).links).toHaveLength(2);
    expect(rankableLinks(compact)).toMatchObject({ total: 4, partial: true });
    expect(rankableLinks(compact).links.map((l) => l.id)).toEqual(['x']);
  });
});
