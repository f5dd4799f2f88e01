import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type AlarmMember, Alarms } from '../src/events/alarms.ts';
import { MemoryEventLog } from '../src/events/event-log.ts';

const member = (id: string, kind: 'isl' | 'host', level = 1, value = 1.5): AlarmMember => ({
  id,
  kind,
  category: 'congestion',
  level,
  value,
  unknownSinceMs: null,
});

describe('alarms with a lifecycle', () => {
  it('a fabric-wide congestion is one alarm per link kind, updated, then cleared; acknowledged by someone', () => {
    const log = new MemoryEventLog();
    const alarms = new Alarms(log);
    const hosts = Array.from({ length: 32 }, (_, i) => member(`switch1/${i + 1}->node${i}/1`, 'host'));
    alarms.update(1000, hosts);
    let [alarm] = alarms.list(false);
    expect(alarms.list(false)).toHaveLength(1);
    expect(alarm).toMatchObject({ state: 'active', count: 32, severity: 'warning', raisedMs: 1000 });
    expect(alarm?.members).toHaveLength(20);
    // Worse now: the same alarm, updated.
    alarms.update(2000, [...hosts.slice(1), member('switch1/1->node0/1', 'host', 3, 12)]);
    [alarm] = alarms.list(false);
    expect(alarm).toMatchObject({ id: 'congestion/host@1000', severity: 'critical', updatedMs: 2000 });
    expect(alarm?.members[0]).toEqual({ id: 'switch1/1->node0/1', value: 12, severity: 'critical' });
    expect(alarms.acknowledge('congestion/host@1000', 'alice', 2500)?.acknowledged).toEqual({
      by: 'alice',
      atMs: 2500,
    });
    expect(alarms.acknowledge('nothing@1', 'alice', 2500)).toBeNull();
    alarms.update(3000, []);
    expect(alarms.list(false)).toEqual([]);
    expect(alarms.list(true)[0]).toMatchObject({
      state: 'cleared',
      clearedMs: 3000,
      acknowledged: { by: 'alice' },
    });
    const details = log.list(0, 4000).map((e) => e.detail);
    expect(details).toEqual([
      'alarm raised: 32 host link directions over the congestion threshold',
      // One severity in the list and the events: the change is logged.
      'alarm warning → critical: 32 host link directions over the congestion threshold',
      'alarm acknowledged by alice: 32 host link directions over the congestion threshold',
      // A date people read, not a raw ISO timestamp.
      expect.stringMatching(
        /^alarm cleared: no host link direction over the congestion threshold \(raised 1970-01-01 00:00:0\d UTC\)$/,
      ),
    ]);
    // Raised again: a new alarm, not the cleared one.
    alarms.update(4000, hosts.slice(0, 2));
    expect(alarms.list(false)[0]?.id).toBe('congestion/host@4000');
  });

  it('for any sequence of ticks: one active alarm per category and kind over threshold, none else', () => {
    const kinds = ['isl', 'host'] as const;
    const categories = ['congestion', 'integrity'] as const;
    fc.assert(
      fc.property(
        fc.array(
          fc.array(
            fc.record({
              n: fc.nat(5),
              kind: fc.constantFrom(...kinds),
              category: fc.constantFrom(...categories),
              level: fc.integer({ min: 1, max: 3 }),
            }),
            { maxLength: 8 },
          ),
          { maxLength: 10 },
        ),
        (ticks) => {
          const alarms = new Alarms();
          ticks.forEach((tick, t) => {
            const members = tick.map((m) => ({
              ...member(`d${m.n}`, m.kind, m.level),
              category: m.category,
            }));
            alarms.update(t, members);
            const groups = new Set(members.map((m) => `${m.category}/${m.kind}`));
            const active = alarms.list(false);
            expect(active.map((a) => `${a.category}/${a.linkKind}`).sort()).toEqual([...groups].sort());
            for (const a of active)
              expect(a.count).toBe(
                members.filter((m) => m.category === a.category && m.kind === a.linkKind).length,
              );
          });
        },
      ),
    );
  });
});
