import { describe, expect, it } from 'vitest';
import { type LosslessSignals, measuredLossless, measuredVictimOf } from '../src/lossless-victims.ts';

/** A direction `a/p->b/q` with its measured wait share and ECN marks a second. */
function direction(id: string, wait: number | null, marks: number | null = 0): LosslessSignals {
  const [from, to] = id.split('->').map((end) => {
    const [node, port] = end.split('/');
    return { node: node as string, port: Number(port) };
  }) as [LosslessSignals['from'], LosslessSignals['to']];
  return { id, from, to, transmitWaitFraction: wait, errors: { markFecn: marks } };
}

const isSwitch = (node: string) => !node.startsWith('host');

// Two leaves under a spine, a third leaf behind a second spine hop: leaf2's port to host3 is full (marks ECN),
// the spine's port to leaf2 is paused, and so is leaf1's uplink and leaf3's uplink two hops up.
const incast = [
  direction('host1/1->leaf1/1', null, null),
  direction('leaf1/3->spine1/1', 0.5),
  direction('spine1/1->leaf1/3', 0),
  direction('spine1/2->leaf2/3', 0.4),
  direction('leaf2/3->spine1/2', 0),
  direction('leaf2/1->host3/1', 0, 3e6),
  direction('leaf2/2->host4/1', 0),
  direction('leaf3/3->spine2/1', 0.3),
  direction('spine2/2->spine1/4', 0.3),
  direction('spine1/4->spine2/2', 0),
];

describe('victims named from measured pause and ECN marks', () => {
  const measured = measuredLossless(incast, isSwitch);

  it('traces each paused direction to the marking egress downstream, over paused hops, never back', () => {
    expect(Object.fromEntries(measured.origins)).toEqual({
      'leaf1/3->spine1/1': 'leaf2/1->host3/1',
      'spine1/2->leaf2/3': 'leaf2/1->host3/1',
      'leaf3/3->spine2/1': 'leaf2/1->host3/1',
      'spine2/2->spine1/4': 'leaf2/1->host3/1',
    });
  });

  it('names a flow through a paused direction that reaches no marking egress, and only that one', () => {
    const victim = ['host1/1->leaf1/1', 'leaf1/3->spine1/1', 'spine1/2->leaf2/3', 'leaf2/2->host4/1'];
    expect(measuredVictimOf(victim, measured)).toBe('leaf2/1->host3/1');
    // The incast's own flow ends at the full egress: it is what the buffer is full of, not a victim.
    expect(measuredVictimOf([...victim.slice(0, 3), 'leaf2/1->host3/1'], measured)).toBeUndefined();
    // A flow crossing no paused direction.
    expect(measuredVictimOf(['spine1/1->leaf1/3'], measured)).toBeUndefined();
  });

  it('names none where a switch egress on the path was not measured: unknown is not "not full"', () => {
    const unmeasured = measuredLossless(
      incast.map((d) => (d.id === 'leaf2/2->host4/1' ? direction(d.id, 0, null) : d)),
      isSwitch,
    );
    const path = ['leaf1/3->spine1/1', 'spine1/2->leaf2/3', 'leaf2/2->host4/1'];
    expect(measuredVictimOf(path, unmeasured)).toBeUndefined();
    expect(measuredVictimOf(path, measured)).toBe('leaf2/1->host3/1');
  });

  it('finds no origin for a pause with no marking egress ahead', () => {
    const quiet = measuredLossless(
      incast.map((d) => direction(d.id, d.transmitWaitFraction, d.errors.markFecn === null ? null : 0)),
      isSwitch,
    );
    expect(quiet.origins.size).toBe(0);
  });
});
