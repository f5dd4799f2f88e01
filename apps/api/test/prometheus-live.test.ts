import { describe, expect, it } from 'vitest';
import { portKey } from '../src/lib/port-rates.ts';
import { EdgeLive, liveQueries } from '../src/store/prometheus-live.ts';
import type { InstantSample, PromqlClient } from '../src/store/promql-client.ts';

const A = { node_guid: '0xa', port: '1' };
const B = { node_guid: '0xb', port: '2' };
const q = liveQueries(45_000);

/** A PromQL client answering the live queries from a table. */
function fakeClient(answers: Map<string, InstantSample[]>) {
  const asked: string[] = [];
  const client = {
    query: (promql: string) => {
      asked.push(promql);
      return Promise.resolve(answers.get(promql) ?? []);
    },
  } as unknown as PromqlClient;
  return { client, asked };
}

const sample = (metric: Record<string, string>, value: number | string): InstantSample => ({
  metric,
  value: [0, String(value)],
});

function answers(): Map<string, InstantSample[]> {
  return new Map([
    [q.bytes, [sample(A, 1000), sample(B, 500)]],
    [q.packets, [sample(A, 10)]],
    [q.wait, [sample(A, 0.5)]],
    [q.down, [sample(B, 0)]],
    [
      q.errors,
      [sample({ ...B, field: 'symbolErrors' }, 0.25), sample({ ...A, field: 'receiveErrors' }, 'NaN')],
    ],
    // The reported fields, and the newest sweep's age: the one sample without a field.
    [q.fields, [sample({ field: 'symbolErrors' }, 2), sample({}, 3), sample({ field: 'receiveErrors' }, 2)]],
  ]);
}

describe('the live tick from the rates at the edge', () => {
  it('takes each direction as the collector measured it, with link state and errors: counted, idle, or unknown', async () => {
    const { client, asked } = fakeClient(answers());
    const live = new EdgeLive(client, 45);
    const snapshot = await live.rates();
    expect(snapshot.directions?.get(portKey('0xa', 1))).toEqual({
      bytesPerSecond: 1000,
      packetsPerSecond: 10,
      transmitWaitFraction: 0.5,
    });
    expect(snapshot.directions?.get(portKey('0xb', 2))).toEqual({
      bytesPerSecond: 500,
      packetsPerSecond: null,
      transmitWaitFraction: null,
    });
    const a = snapshot.ports.get(portKey('0xa', 1));
    const b = snapshot.ports.get(portKey('0xb', 2));
    // No per-port rates are made up: the ports carry link state and errors only.
    expect(a).toMatchObject({ transmitBytesPerSecond: null, transmitWaitTicksPerSecond: null, linkUp: true });
    expect(b?.linkUp).toBe(false);
    // A field the collectors report: counted where counted, idle (0) elsewhere, unknown where NaN.
    expect(b?.errors?.symbolErrors).toBe(0.25);
    expect(a?.errors?.symbolErrors).toBe(0);
    expect(b?.errors?.receiveErrors).toBe(0);
    expect(a?.errors?.receiveErrors).toBeUndefined();
    // A field no collector reports stays unknown.
    expect(a?.errors?.vl15Dropped).toBeUndefined();
    expect(snapshot.lastSampleAgeSeconds).toBe(3);
    // Six queries a tick: three dense, the down ports, the error detail, the fields with the age.
    expect(asked).toHaveLength(6);
    // Every query is reduced to the port's key (and the field), or to one number; none rates.
    for (const query of asked) {
      expect(query).toMatch(/^(max by \(node_guid, port(, field)?\)|time\(\) - max|count by \(field\))/);
      expect(query).not.toMatch(/\b(rate|deriv|irate|increase)\(/);
    }
  });

  it('past the staleness limit every direction is unknown', async () => {
    const table = answers();
    table.set(q.fields, [sample({ field: 'symbolErrors' }, 2), sample({}, 60)]);
    const snapshot = await new EdgeLive(fakeClient(table).client, 45).rates();
    expect(snapshot.ports.size).toBe(0);
    expect(snapshot.directions?.size).toBe(0);
    expect(snapshot.lastSampleAgeSeconds).toBe(60);
  });

  it('says so when collectors sweep but no direction series arrive', async () => {
    const table = answers();
    table.set(q.bytes, []);
    const snapshot = await new EdgeLive(fakeClient(table).client, 45).rates();
    expect(snapshot.error).toMatch(/fabscope_link_data_bytes_per_second/);
  });
});
