import { describe, expect, it } from 'vitest';
import { liveQueries, RecordedLive } from '../src/store/prometheus-live.ts';
import type { InstantSample, PromqlClient } from '../src/store/promql-client.ts';
import { portKey } from '../src/store/types.ts';

const A = { node_guid: '0xa', port: '1' };
const B = { node_guid: '0xb', port: '2' };
const q = liveQueries('15s', '90s');

/** A PromQL client answering the live queries from a table; `hang` keeps the slow ones pending. */
function fakeClient(answers: Map<string, InstantSample[]>, hang = { slow: false }) {
  const asked: string[] = [];
  const slowQueries = new Set([
    q.slow.waitTick,
    q.slow.families,
    ...Object.values(q.slow.errors),
    ...Object.values(q.slow.gauges),
  ]);
  const client = {
    query: (promql: string) => {
      asked.push(promql);
      if (hang.slow && slowQueries.has(promql)) return new Promise<InstantSample[]>(() => {});
      return Promise.resolve(answers.get(promql) ?? []);
    },
  } as unknown as PromqlClient;
  return { client, asked, slowQueries };
}

const sample = (metric: Record<string, string>, value: number): InstantSample => ({
  metric,
  value: [0, String(value)],
});

function answers(): Map<string, InstantSample[]> {
  return new Map([
    [q.tick.bytes, [sample(A, 1000), sample(B, 500)]],
    [q.tick.packets, [sample(A, 10)]],
    [q.tick.wait, [sample(A, 0.5)]],
    [q.tick.down, [sample(B, 0)]],
    [q.tick.counterAge, [sample({}, 2)]],
    [q.tick.recordedAge, [sample({}, 3)]],
    [q.slow.waitTick, [sample(A, 1e-9)]],
    [q.slow.families, [sample({ __name__: 'fabscope_port_symbol_error_total' }, 2)]],
    [q.slow.errors.symbolErrors, [sample(B, 0.25)]],
  ]);
}

describe('the live tick from recorded series', () => {
  it('gives each sending port its direction, packets, wait, link state, and errors: counted, 0, or unknown', async () => {
    const { client } = fakeClient(answers());
    const live = new RecordedLive(client, {
      rateWindow: '15s',
      errorWindow: '90s',
      slowRefreshMs: 30_000,
      staleAfterSeconds: 45,
    });
    const snapshot = await live.rates();
    const a = snapshot.ports.get(portKey('0xa', 1));
    const b = snapshot.ports.get(portKey('0xb', 2));
    expect(a).toMatchObject({
      transmitBytesPerSecond: 1000,
      receiveBytesPerSecond: null,
      transmitPacketsPerSecond: 10,
      transmitWaitTickSeconds: 1e-9,
      linkUp: true,
    });
    expect((a?.transmitWaitTicksPerSecond ?? 0) * 1e-9).toBeCloseTo(0.5, 9);
    expect(b?.linkUp).toBe(false);
    // The family Prometheus has: counted where counted, 0 elsewhere; families it lacks stay unknown.
    expect(b?.errors?.symbolErrors).toBe(0.25);
    expect(a?.errors?.symbolErrors).toBe(0);
    expect(a?.errors?.receiveErrors).toBeUndefined();
    // The data is as old as the older of the counters and the rules' evaluation.
    expect(snapshot.lastSampleAgeSeconds).toBe(3);
  });

  it('past the staleness limit every direction is unknown, as the raw counters would be', async () => {
    const table = answers();
    table.set(q.tick.recordedAge, [sample({}, 60)]);
    const live = new RecordedLive(fakeClient(table).client, {
      rateWindow: '15s',
      errorWindow: '90s',
      slowRefreshMs: 0,
      staleAfterSeconds: 45,
    });
    const snapshot = await live.rates();
    expect(snapshot.ports.size).toBe(0);
    expect(snapshot.lastSampleAgeSeconds).toBe(60);
  });

  it('reads the error counters at their cadence, and a tick never waits for their refresh', async () => {
    const hang = { slow: false };
    const { client, asked, slowQueries } = fakeClient(answers(), hang);
    let nowMs = 0;
    const live = new RecordedLive(client, {
      rateWindow: '15s',
      errorWindow: '90s',
      slowRefreshMs: 30_000,
      staleAfterSeconds: 45,
      now: () => nowMs,
    });
    await live.rates();
    const slowAsked = () => asked.filter((a) => slowQueries.has(a)).length;
    expect(slowAsked()).toBe(slowQueries.size);
    nowMs = 10_000;
    await live.rates();
    expect(slowAsked()).toBe(slowQueries.size);
    // Due again, but Prometheus takes its time: the tick answers with the previous errors.
    hang.slow = true;
    nowMs = 31_000;
    const snapshot = await live.rates();
    expect(slowAsked()).toBe(2 * slowQueries.size);
    expect(snapshot.ports.get(portKey('0xb', 2))?.errors?.symbolErrors).toBe(0.25);
    // Every query the tick asks is reduced to the port's key or to one number.
    for (const query of asked)
      expect(query).toMatch(/^(max by \(node_guid, port\)|time\(\) - max|count by \(__name__\))/);
  });
});
