import { configFromEnv } from '@fabscope/api';
import { startTrafficPairs } from '@fabscope/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningIbsimDemo, startIbsimDemo } from '../src/index.ts';
import { eventually } from './eventually.ts';

interface AlarmRow {
  category: string;
  state: string;
  summary: string;
  unknown?: { count: number; since: string; reason: string };
}

// Two flows into one host on demo:ibsim: the switch port towards it waits, and its 32-bit PortXmitWait, written into
// ibsim and read back by MAD, saturates within seconds. Congestion is then unknown: the alarm stays raised and gives
// the collector's reason (fabscope_port_counter_saturated_since_seconds), never "cleared".
describe('a congestion alarm whose XmitWait saturates on the lab', () => {
  let demo: RunningIbsimDemo;
  const api = async (path: string) =>
    (await (await fetch(`${demo.apiUrl}/api/v1${path}`)).json()) as Record<string, unknown>;

  beforeAll(async () => {
    const config = { ...configFromEnv({}), host: '127.0.0.1', port: 0 };
    demo = await startIbsimDemo({ config, routing: 'minhop' });
    await eventually(async () => expect((await api('/health')).status).toBe('ok'), 30_000);
  }, 60_000);
  afterAll(async () => {
    await demo?.stop();
  });

  it('stays raised and says "XmitWait saturated since … — congestion unknown"', async () => {
    const startedMs = Date.now();
    await startTrafficPairs(demo.apiUrl, [
      ['nodeA', 'nodeC'],
      ['nodeB', 'nodeC'],
    ]);
    await eventually(async () => {
      const alarms = (await api('/alarms')).alarms as AlarmRow[];
      const congestion = alarms.find((a) => a.category === 'congestion');
      expect(congestion?.state).toBe('active');
      expect(congestion?.unknown?.reason).toMatch(
        /^XmitWait saturated since \d\d:\d\d:\d\d — congestion unknown$/,
      );
    }, 60_000);
    const events = (await api(`/events?from=${(startedMs - 1000) / 1000}&limit=5000`)).events as {
      kind: string;
      detail: string;
    }[];
    expect(events.filter((e) => e.kind === 'alarm' && /^alarm cleared.*congestion/.test(e.detail))).toEqual(
      [],
    );
  }, 120_000);
});
