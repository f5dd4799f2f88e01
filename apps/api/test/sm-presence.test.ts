import { describe, expect, it } from 'vitest';
import { MemoryEventLog } from '../src/events/event-log.ts';
import { SmPresenceWatch } from '../src/sm-tables/sm-presence.ts';

const MASTER =
  'sminfo: sm lid 1 sm guid 0x0002c90000000001, activity count 120 priority 0 state 3 SMINFO_MASTER';

/** A watch on a scripted SM (answering or not, per probe) and clock, probed every 5 s. */
function scripted() {
  const clock = { now: Date.parse('2026-01-01T12:00:00Z') };
  const sm = { answers: true, tables: undefined as string | undefined };
  const log = new MemoryEventLog();
  const watch = new SmPresenceWatch(
    async () => {
      if (!sm.answers) throw new Error('iberror: failed: query');
      return MASTER;
    },
    { intervalMs: 5000, events: log, now: () => clock.now, tablesUnreadable: () => sm.tables },
  );
  const probe = async (times: number) => {
    for (let i = 0; i < times; i++) {
      await watch.refresh();
      clock.now += 5000;
    }
  };
  return { clock, sm, log, watch, probe };
}

describe('the subnet manager watched: its absence is an event and a line in /health', () => {
  it('an SM stopped for 60 s gives one event when it goes and one when it is back', async () => {
    const { sm, log, watch, probe } = scripted();
    await probe(3);
    expect(watch.health()).toMatchObject({
      state: 'present',
      since: '2026-01-01T12:00:00.000Z',
      detail: MASTER,
    });
    sm.answers = false;
    await probe(12);
    expect(watch.health()).toMatchObject({
      state: 'absent',
      since: '2026-01-01T12:00:15.000Z',
      detail: 'no subnet manager answers SubnGet(SMInfo): iberror: failed: query',
    });
    sm.answers = true;
    await probe(3);
    expect(watch.health()).toMatchObject({ state: 'present', since: '2026-01-01T12:01:15.000Z' });
    expect(log.list(0, Number.MAX_SAFE_INTEGER).map((e) => [e.kind, e.severity, e.detail])).toEqual([
      [
        'subnet-manager',
        'error',
        'subnet manager gone since 12:00:15: no subnet manager answers SubnGet(SMInfo): iberror: failed: query; routes are the tables read before',
      ],
      ['subnet-manager', 'info', `subnet manager answers again after 60 s: ${MASTER}`],
    ]);
  });

  it('one lost answer is no absence; tables that cannot be read are one', async () => {
    const { sm, log, watch, probe } = scripted();
    await probe(2);
    sm.answers = false;
    await probe(1);
    sm.answers = true;
    await probe(2);
    expect(log.list(0, Number.MAX_SAFE_INTEGER)).toEqual([]);
    sm.tables = "EACCES: permission denied, open '/var/log/opensm-lfts.dump'";
    await probe(2);
    expect(watch.health()).toMatchObject({
      state: 'absent',
      detail: `its tables cannot be read: ${sm.tables}`,
    });
    expect(log.list(0, Number.MAX_SAFE_INTEGER)).toHaveLength(1);
  });
});
