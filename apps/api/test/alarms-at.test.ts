import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type AlarmMember, Alarms } from '../src/events/alarms.ts';
import { alarmsAt, readAlarmEvent } from '../src/events/alarms-at.ts';
import { MemoryEventLog } from '../src/events/event-log.ts';

const member = (id: string, kind: 'isl' | 'host', level = 1): AlarmMember => ({
  id,
  kind,
  category: 'congestion',
  level,
  value: 1.5,
  unknownSinceMs: null,
});

describe('alarms as they stood at an instant, from the event log', () => {
  it('shows an alarm raised, escalated, acknowledged, then cleared, at each instant', () => {
    const log = new MemoryEventLog();
    const alarms = new Alarms(log);
    const hosts = Array.from({ length: 679 }, (_, i) => member(`edge1/${i}->node${i}/1`, 'host'));
    alarms.update(1000, hosts);
    alarms.update(2000, [...hosts.slice(1), member('edge1/0->node0/1', 'host', 2)]);
    alarms.acknowledge('congestion/host@1000', 'alice', 2500);
    alarms.update(3000, []);
    const events = log.list(0, 5000);
    expect(alarmsAt(events, 500, true)).toEqual([]);
    expect(alarmsAt(events, 1500, false)).toMatchObject([
      { id: 'congestion/host@1000', state: 'active', severity: 'warning', count: 679, acknowledged: null },
    ]);
    expect(alarmsAt(events, 2600, false)).toMatchObject([
      { severity: 'error', acknowledged: { by: 'alice', atMs: 2500 }, clearedMs: null },
    ]);
    expect(alarmsAt(events, 3000, false)).toEqual([]);
    expect(alarmsAt(events, 3000, true)).toMatchObject([
      { id: 'congestion/host@1000', state: 'cleared', clearedMs: 3000, acknowledged: { by: 'alice' } },
    ]);
  });

  it('reads only the alarm events it wrote', () => {
    const at = { timeMs: 1, subject: 'fabric' } as const;
    expect(
      readAlarmEvent({
        ...at,
        kind: 'threshold',
        detail: 'alarm raised: 2 ISL directions over the x threshold',
      }),
    ).toBeNull();
    expect(readAlarmEvent({ ...at, kind: 'alarm', detail: 'something else' })).toBeNull();
    expect(
      readAlarmEvent({
        ...at,
        kind: 'alarm',
        detail: 'alarm acknowledged by bob: 1 ISL direction over the integrity threshold',
      }),
    ).toEqual({ what: 'acknowledged', key: 'integrity/isl', by: 'bob' });
  });

  it('for any sequence of ticks, the replay at each tick has the live alarms, severities and acks', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            members: fc.array(
              fc.record({
                n: fc.nat(5),
                kind: fc.constantFrom('isl' as const, 'host' as const),
                category: fc.constantFrom('congestion' as const, 'integrity' as const),
                level: fc.integer({ min: 1, max: 3 }),
              }),
              { maxLength: 6 },
            ),
            ack: fc.boolean(),
          }),
          { maxLength: 12 },
        ),
        (ticks) => {
          const log = new MemoryEventLog();
          const alarms = new Alarms(log);
          ticks.forEach((tick, i) => {
            const t = (i + 1) * 1000;
            alarms.update(
              t,
              tick.members.map((m) => ({ ...member(`d${m.n}`, m.kind, m.level), category: m.category })),
            );
            const first = alarms.list(false)[0];
            if (tick.ack && first && !first.acknowledged) alarms.acknowledge(first.id, 'op', t + 1);
            const live = alarms.list(false).map((a) => ({
              id: a.id,
              severity: a.severity,
              acknowledged: a.acknowledged?.by ?? null,
            }));
            const past = alarmsAt(log.list(0, t + 1), t + 1, false).map((a) => ({
              id: a.id,
              severity: a.severity,
              acknowledged: a.acknowledged?.by ?? null,
            }));
            const byId = (x: { id: string }, y: { id: string }) => (x.id < y.id ? -1 : 1);
            expect(past.sort(byId)).toEqual(live.sort(byId));
          });
        },
      ),
    );
  });
});
