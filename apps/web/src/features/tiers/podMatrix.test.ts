import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { utilizationColor } from '../../lib/colors.ts';
import { isCongested } from '../../lib/linkHealth.ts';
import { threeTier } from '../../test/testTopologies.ts';
import { sameValues } from '../links/sameValues.ts';
import {
  buildPods,
  busiest,
  parsePod,
  podCellLook,
  podCellValues,
  samePodCell,
  serializePod,
  switchPorts,
} from './podMatrix.ts';

describe('pods of a three-tier fabric', () => {
  const fabric = threeTier();
  const pods = buildPods(fabric);
  const channelId = (c: number) => {
    const l = fabric.links[c >> 1];
    if (!l) throw new Error(`no channel ${c}`);
    const [from, to] = c % 2 === 0 ? [l.a, l.b] : [l.b, l.a];
    return `${from.node}/${from.port}->${to.node}/${to.port}`;
  };

  it('finds each pod: its edge and aggregation switches', () => {
    expect(pods.map((p) => [p.name, p.edges, p.aggregations])).toEqual([
      ['pod 1', ['edge1', 'edge2'], ['agg1', 'agg2']],
      ['pod 2', ['edge3', 'edge4'], ['agg3', 'agg4']],
    ]);
  });

  it('gives each edge × aggregation cell its up and down channel', () => {
    const pod = pods[1];
    const cell = pod?.cells[1 * 2 + 0]; // edge4 × agg3
    expect(cell?.up.map(channelId)).toEqual(['edge4/3->agg3/2']);
    expect(cell?.down.map(channelId)).toEqual(['agg3/2->edge4/3']);
    expect(pod?.cells.every((c) => c !== null)).toBe(true);
  });

  it("lists a switch's ports with the channels out and in", () => {
    const ports = switchPorts(fabric, 'agg1');
    expect(ports.map((p) => [p.port, p.peer, channelId(p.out), channelId(p.in)])).toEqual([
      [1, 'edge1', 'agg1/1->edge1/3', 'edge1/3->agg1/1'],
      [2, 'edge2', 'agg1/2->edge2/3', 'edge2/3->agg1/2'],
      [3, 'core1', 'agg1/3->core1/1', 'core1/1->agg1/3'],
      [4, 'core2', 'agg1/4->core2/1', 'core2/1->agg1/4'],
    ]);
  });

  it('shows a trunk by its busiest cable, unknown as null', () => {
    expect(busiest([0, 1, 2], [0.2, null, 0.7])).toBe(0.7);
    expect(busiest([1], [0.2, null])).toBeNull();
    expect(busiest([], [])).toBeNull();
    // The dashboard's per-channel arrays say unknown with NaN.
    expect(busiest([0, 1], Float64Array.of(Number.NaN, 0.3))).toBe(0.3);
    expect(busiest([0], Float64Array.of(Number.NaN))).toBeNull();
  });
});

describe('a pod matrix cell at an instant', () => {
  // Values as the stream carries them: a fraction, NaN (unknown) or nothing at all.
  const value = fc.oneof(fc.double({ min: 0, max: 1.5, noNaN: true }), fc.constant(Number.NaN));
  const cell = fc.record({
    up: fc.uniqueArray(fc.integer({ min: 0, max: 7 }), { minLength: 1, maxLength: 3 }),
    down: fc.uniqueArray(fc.integer({ min: 0, max: 7 }), { minLength: 1, maxLength: 3 }),
  });

  it('shows its busiest cable each way, waiting when either way waits, in its name and colours', () => {
    fc.assert(
      fc.property(
        cell,
        fc.array(value, { minLength: 8, maxLength: 8 }),
        fc.array(value, { minLength: 8, maxLength: 8 }),
        (c, utilization, waitFraction) => {
          const values = podCellValues(c, utilization, waitFraction);
          expect(values.up).toBe(busiest(c.up, utilization));
          expect(values.down).toBe(busiest(c.down, utilization));
          expect(values.waiting).toBe(
            isCongested(busiest(c.up, waitFraction)) || isCongested(busiest(c.down, waitFraction)),
          );
          const waits = [busiest(c.up, waitFraction), busiest(c.down, waitFraction)].filter(
            (w): w is number => w !== null,
          );
          expect(values.wait).toBe(waits.length === 0 ? null : Math.max(...waits));
          const look = podCellLook(values, 'edge1', 'agg2');
          expect(look.upColor).toBe(utilizationColor(values.up));
          expect(look.downColor).toBe(utilizationColor(values.down));
          expect(look.waiting).toBe(values.waiting);
          const percent = (v: number | null) => (v === null ? '—' : `${(v * 100).toFixed(1)} %`);
          expect(look.label).toBe(
            `edge1 → agg2 ${percent(values.up)}, agg2 → edge1 ${percent(values.down)}, wait ${percent(values.wait)}${
              values.waiting ? ', waiting for credit' : ''
            }`,
          );
        },
      ),
    );
  });

  it('is unknown, never 0, when no cable of it has a value', () => {
    const values = podCellValues({ up: [0], down: [1] }, [Number.NaN, Number.NaN], [Number.NaN, 0.9]);
    expect(values).toEqual({ up: null, down: null, wait: 0.9, waiting: true });
    expect(podCellLook(values, 'edge1', 'agg1').label).toBe(
      'edge1 → agg1 —, agg1 → edge1 —, wait 90.0 %, waiting for credit',
    );
  });
});

describe('two instants of a pod cell compared', () => {
  it('read the same exactly when their values do, field by field', () => {
    const value = fc.option(fc.constantFrom(0, 0.25, 0.5, 1, Number.NaN), { nil: null });
    const cell = fc.record({ up: value, down: value, wait: value, waiting: fc.boolean() });
    fc.assert(
      fc.property(cell, cell, (a, b) => {
        expect(samePodCell(a, b)).toBe(sameValues(a, b));
        expect(samePodCell(a, { ...a })).toBe(true);
      }),
    );
  });
});

describe('the pod in the URL', () => {
  it('round-trips every pod index; the first pod is no parameter', () => {
    fc.assert(
      fc.property(fc.nat({ max: 99_999 }), (pod) => {
        expect(parsePod(serializePod(pod))).toBe(pod);
      }),
    );
    expect(serializePod(0)).toBeNull();
    expect(serializePod(1)).toBe('2');
  });

  it('anything but a count from 1 is the first pod', () => {
    for (const raw of [null, '', '0', '-1', 'x', '1.5', '1e3', '9999999']) expect(parsePod(raw)).toBe(0);
  });
});
