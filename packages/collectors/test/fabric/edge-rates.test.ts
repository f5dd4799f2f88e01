import { EDGE_SERIES as EDGE } from '@fabscope/contracts/metrics';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { EdgeRates, type EdgeSweep } from '../../src/fabric/edge-rates.ts';
import { createFabricRegistry } from '../../src/fabric/fabric-registry.ts';
import type { FabricSnapshot, FabricSource, PortSample } from '../../src/fabric/port-sample.ts';
import { find, type Sample, samples, value } from '../helpers.ts';

const SW = '0x0011750101000001';
const A = '0x0011750100000001';
const B = '0x0011750100000002';
const RATE = 12.5e9;

/** Counters of one port at a sweep; the rest of the port fixed. */
interface Counters {
  tx: number;
  rx: number;
  txPkts?: number;
  rxPkts?: number;
  wait?: number;
  symbolErrors?: number;
}

function port(
  guid: string,
  name: string,
  type: PortSample['nodeType'],
  n: number,
  remote: [string, string, number],
  c: Counters,
): PortSample {
  return {
    nodeGuid: guid,
    nodeName: name,
    nodeType: type,
    portNumber: n,
    lid: 1,
    rateBytesPerSecond: RATE,
    linkUp: true,
    remote: { nodeGuid: remote[0], nodeName: remote[1], portNumber: remote[2] },
    transmitBytes: c.tx,
    receiveBytes: c.rx,
    transmitPackets: c.txPkts ?? c.tx / 1000,
    receivePackets: c.rxPkts ?? c.rx / 1000,
    transmitWaitTicks: c.wait ?? 0,
    transmitWaitTickSeconds: 1e-9,
    errors: { symbolErrors: c.symbolErrors ?? 0, linkQualityIndicator: 5 },
  };
}

/** nodeA/1 ↔ edge/1 and nodeB/1 ↔ edge/2, a read at `timeMs` with each port's counters. */
function snapshot(timeMs: number, c: Record<'a' | 'sa' | 'b' | 'sb', Counters>): FabricSnapshot {
  return {
    fabric: 'f',
    fabricType: 'infiniband',
    countersReadAtMs: timeMs,
    ports: [
      port(A, 'nodeA', 'host', 1, [SW, 'edge', 1], c.a),
      port(SW, 'edge', 'switch', 1, [A, 'nodeA', 1], c.sa),
      port(B, 'nodeB', 'host', 1, [SW, 'edge', 2], c.b),
      port(SW, 'edge', 'switch', 2, [B, 'nodeB', 1], c.sb),
    ],
  };
}

/** A source answering the reads queued (an Error fails that read). */
function queued(reads: (FabricSnapshot | Error)[]): FabricSource {
  return {
    name: 'test',
    read: async () => {
      const next = reads.shift();
      if (!next) throw new Error('no read queued');
      if (next instanceof Error) throw next;
      return next;
    },
  };
}

const direction = (guid: string, port: number) => ({ node_guid: guid, port: String(port) });
const steady = (k: number, extra: Partial<Record<'a' | 'sa' | 'b' | 'sb', Counters>> = {}) => ({
  // nodeA sends 1 GB/s to edge; edge sends 2 GB/s to nodeA; nodeB idle. Read every second.
  a: { tx: 1e12 + k * 1e9, rx: 5e11 + k * 2e9, wait: k * 2e8 },
  sa: { tx: 5e11 + k * 2e9, rx: 1e12 + k * 1e9 },
  b: { tx: 7, rx: 7 },
  sb: { tx: 7, rx: 7 },
  ...extra,
});

async function sweeps(reads: (FabricSnapshot | Error)[], options = {}): Promise<Sample[][]> {
  const n = reads.length;
  const registry = createFabricRegistry({ source: queued(reads), ...options });
  const out: Sample[][] = [];
  for (let i = 0; i < n; i++) out.push(samples(await registry.scrape()));
  return out;
}

describe('rates at the edge', () => {
  it('exposes each direction, keyed by its sending port, from exact deltas of two reads, stamped with the read time', async () => {
    const [first, second] = await sweeps([snapshot(10_000, steady(0)), snapshot(11_250, steady(1.25))]);
    // The first read has nothing to rate.
    expect(find(first as Sample[], EDGE.bytes)).toEqual([]);
    const s = second as Sample[];
    expect(value(s, EDGE.bytes, direction(A, 1))).toBeCloseTo(1e9, 3);
    expect(value(s, EDGE.bytes, direction(SW, 1))).toBeCloseTo(2e9, 3);
    expect(value(s, EDGE.bytes, direction(B, 1))).toBe(0);
    expect(value(s, EDGE.packets, direction(A, 1))).toBeCloseTo(1e6, 3);
    expect(value(s, EDGE.utilization, direction(SW, 1))).toBeCloseTo(2e9 / RATE, 9);
    // XmitWait 2e8 ticks/s × 1 ns: 20 % of the time.
    expect(value(s, EDGE.wait, direction(A, 1))).toBeCloseTo(0.2, 9);
    const [bytes] = find(s, EDGE.bytes, direction(A, 1));
    expect(bytes?.labels).toEqual({
      fabric: 'f',
      node_guid: A,
      port: '1',
      node_type: 'host',
      remote_node_type: 'switch',
    });
    expect(bytes?.timestampMs).toBe(11_250);
    expect(value(s, EDGE.sweep)).toBe(1.25);
    // The summary: hosts send 1 GB/s; four directions in bucket 0 or 1 (utilization 8 %, 16 %).
    expect(value(s, EDGE.hostBytes)).toBeCloseTo(1e9, 3);
    const buckets = find(s, EDGE.directions, { kind: 'host' }).map((b) => b.value);
    expect(buckets.reduce((a, b) => a + b, 0)).toBe(4);
    expect(find(s, EDGE.directions, { kind: 'host', bucket: '1' })[0]?.value).toBe(1);
  });

  it('a counter that went backwards is a gap for its port (the other end carries the direction), and a reset counted', async () => {
    const reset = steady(2, { a: { tx: 10, rx: 20 } });
    const [, , third, fourth] = await sweeps([
      snapshot(10_000, steady(0)),
      snapshot(11_000, steady(1)),
      snapshot(12_000, reset),
      snapshot(13_000, steady(3, { a: { tx: 10 + 1e9, rx: 20 + 2e9, wait: 0 } })),
    ]);
    const s = third as Sample[];
    // nodeA → edge: nodeA's transmit is a gap, edge's receive gives 1 GB/s: no spike, no drop.
    expect(value(s, EDGE.bytes, direction(A, 1))).toBeCloseTo(1e9, 3);
    // nodeA's XmitWait is the sender's alone: unknown this sweep.
    expect(find(s, EDGE.wait, direction(A, 1))).toEqual([]);
    expect(value(s, EDGE.resets, direction(A, 1))).toBe(1);
    expect(value(fourth as Sample[], EDGE.wait, direction(A, 1))).toBe(0);
  });

  it('a read that failed makes the next sweep a gap for every port: never one rate over two intervals', async () => {
    const [, , failed, after, again] = await sweeps([
      snapshot(10_000, steady(0)),
      snapshot(11_000, steady(1)),
      new Error('switch not answering'),
      snapshot(13_000, steady(3)),
      snapshot(14_000, steady(4)),
    ]);
    expect(find(failed as Sample[], EDGE.bytes)).toEqual([]);
    expect(find(after as Sample[], EDGE.bytes)).toEqual([]);
    expect(find(after as Sample[], EDGE.sweep)).toEqual([]);
    expect(value(again as Sample[], EDGE.bytes, direction(A, 1))).toBeCloseTo(1e9, 3);
  });

  it('a port missing from a read is a gap for it at the next sweep; its directions come from the far end', async () => {
    const missing = snapshot(12_000, steady(2));
    missing.ports = missing.ports.filter((p) => p.nodeGuid !== A);
    const [, , gap, back] = await sweeps([
      snapshot(10_000, steady(0)),
      snapshot(11_000, steady(1)),
      missing,
      snapshot(13_000, steady(3)),
    ]);
    // Missing: the switch's end alone carries both directions of the cable.
    expect(value(gap as Sample[], EDGE.bytes, direction(A, 1))).toBeCloseTo(1e9, 3);
    expect(value(gap as Sample[], EDGE.bytes, direction(SW, 1))).toBeCloseTo(2e9, 3);
    // Back: nodeA's previous reading is two sweeps old, so its own rates are a gap.
    expect(find(back as Sample[], EDGE.wait, direction(A, 1))).toEqual([]);
    expect(value(back as Sample[], EDGE.bytes, direction(A, 1))).toBeCloseTo(1e9, 3);
  });

  it('a basic 32-bit counter stuck at its ceiling is unknown, not idle', async () => {
    const stuck = 4 * (2 ** 32 - 1);
    const [, second] = await sweeps([
      snapshot(10_000, steady(0, { b: { tx: stuck, rx: 7 }, sb: { tx: 7, rx: stuck } })),
      snapshot(11_000, steady(1, { b: { tx: stuck, rx: 7 }, sb: { tx: 7, rx: stuck } })),
    ]);
    expect(find(second as Sample[], EDGE.bytes, direction(B, 1))).toEqual([]);
    expect(value(second as Sample[], EDGE.bytes, direction(SW, 2))).toBe(0);
  });

  it('a packet counter stepped by 2^60 is a gap, never a rate; the far end still carries the direction', async () => {
    const step = 2 ** 60;
    const stepped = (k: number) => ({
      tx: 1e12 + k * 1e9,
      rx: 5e11 + k * 2e9,
      txPkts: step + k * 1e6,
      wait: k * 2e8,
    });
    const [, second, third] = await sweeps([
      snapshot(10_000, steady(0, { a: { ...stepped(0), txPkts: 0 } })),
      snapshot(11_000, steady(1, { a: stepped(1) })),
      snapshot(
        12_000,
        steady(2, {
          a: { ...stepped(2), txPkts: 2 * step },
          sa: { tx: 5e11 + 4e9, rx: 1e12 + 2e9, rxPkts: step },
        }),
      ),
    ]);
    // Only nodeA's transmit stepped: the direction takes edge's receive, 1e6 packets/s.
    expect(value(second as Sample[], EDGE.packets, direction(A, 1))).toBeCloseTo(1e6, 3);
    // Both ends stepped: no figure at all, never 1.15e18 packets/s.
    expect(find(third as Sample[], EDGE.packets, direction(A, 1))).toEqual([]);
    expect(value(third as Sample[], EDGE.bytes, direction(A, 1))).toBeCloseTo(1e9, 3);
  });

  it('XmitWait stepping faster than its ticks can pass is a gap, not a wait share', async () => {
    // 1 ns ticks: at most 1e9 a second; 5e9 in one second is a counter written, not waiting.
    const [, second] = await sweeps([
      snapshot(10_000, steady(0)),
      snapshot(11_000, steady(1, { a: { tx: 1e12 + 1e9, rx: 5e11 + 2e9, wait: 5e9 } })),
    ]);
    expect(find(second as Sample[], EDGE.wait, direction(A, 1))).toEqual([]);
    expect(value(second as Sample[], EDGE.bytes, direction(A, 1))).toBeCloseTo(1e9, 3);
  });

  it('error fields are written where they counted, NaN where unknown, then idle for three sweeps, then not at all', async () => {
    const errors = (k: number, symbolErrors: number) =>
      snapshot(
        10_000 + 1000 * k,
        steady(k, { sa: { tx: 5e11 + k * 2e9, rx: 1e12 + k * 1e9, symbolErrors } }),
      );
    const all = await sweeps([
      errors(0, 0),
      errors(1, 0),
      errors(2, 50),
      errors(3, 50),
      errors(4, 50),
      errors(5, 50),
      errors(6, 50),
    ]);
    const detail = (i: number) =>
      find(all[i] as Sample[], EDGE.portErrors, { ...direction(SW, 1), field: 'symbolErrors' }).map(
        (s) => s.value,
      );
    expect(detail(1)).toEqual([]);
    expect(detail(2)).toEqual([50]);
    expect(detail(3)).toEqual([0]);
    expect(detail(4)).toEqual([0]);
    expect(detail(5)).toEqual([0]);
    expect(detail(6)).toEqual([]);
    // The direction nodeA → edge: edge's receive errors, 50/s, and its Integrity (weight 1 on IB).
    expect(value(all[2] as Sample[], EDGE.errors, direction(A, 1))).toBe(50);
    expect(value(all[2] as Sample[], EDGE.categories, { ...direction(A, 1), category: 'integrity' })).toBe(
      0.5,
    );
    expect(value(all[6] as Sample[], EDGE.errors, direction(A, 1))).toBeUndefined();
    // The collector says which fields its ports report.
    expect(value(all[2] as Sample[], EDGE.errorFields, { field: 'symbolErrors' })).toBe(4);
  });

  it('leaves the raw counters out of an unfiltered scrape when off, and gives them to a scrape that names them', async () => {
    const reads = [snapshot(10_000, steady(0)), snapshot(11_000, steady(1))];
    const registry = createFabricRegistry({ source: queued(reads), rawCounters: false });
    const unfiltered = samples(await registry.scrape());
    expect(find(unfiltered, 'fabscope_port_data_transmitted_bytes_total')).toEqual([]);
    expect(find(unfiltered, 'fabscope_port_info').length).toBe(4);
    const named = samples(
      await registry.scrape({ names: new Set(['fabscope_port_data_transmitted_bytes_total', EDGE.bytes]) }),
    );
    expect(find(named, 'fabscope_port_data_transmitted_bytes_total').length).toBe(4);
    expect(find(named, EDGE.bytes).length).toBe(4);
    expect(new Set(named.map((s) => s.name))).toEqual(
      new Set(['fabscope_port_data_transmitted_bytes_total', EDGE.bytes]),
    );
  });
});

describe('rates at the edge over collector shards', () => {
  /** Four edge switches in a ring of ISLs, two hosts each, every port sending 1 GB/s × (k + 1). */
  function ring(timeMs: number, k: number): FabricSnapshot {
    const ports: PortSample[] = [];
    const sw = (s: number) => `0x00117501010000${String(s).padStart(2, '0')}`;
    const host = (s: number, h: number) => `0x00117501000000${String(s * 2 + h).padStart(2, '0')}`;
    const add = (
      guid: string,
      name: string,
      type: PortSample['nodeType'],
      n: number,
      remote: [string, string, number],
    ) =>
      ports.push(port(guid, name, type, n, remote, { tx: (k + 1) * 1e9 * (ports.length + 1), rx: k * 1e9 }));
    for (let s = 0; s < 4; s++) {
      for (let h = 0; h < 2; h++) {
        add(sw(s), `edge${s}`, 'switch', h + 1, [host(s, h), `node${s}-${h}`, 1]);
        add(host(s, h), `node${s}-${h}`, 'host', 1, [sw(s), `edge${s}`, h + 1]);
      }
      add(sw(s), `edge${s}`, 'switch', 10, [sw((s + 1) % 4), `edge${(s + 1) % 4}`, 11]);
      add(sw((s + 1) % 4), `edge${(s + 1) % 4}`, 'switch', 11, [sw(s), `edge${s}`, 10]);
    }
    return { fabric: 'f', fabricType: 'infiniband', countersReadAtMs: timeMs, ports };
  }

  it('write every direction once, by its sender’s shard, and their summaries add up to the whole', async () => {
    const scrapeAll = async (shard?: { index: number; count: number }) => {
      const registry = createFabricRegistry({
        source: queued([ring(10_000, 0), ring(11_000, 1)]),
        ...(shard ? { shard } : {}),
      });
      await registry.scrape();
      return samples(await registry.scrape());
    };
    const whole = await scrapeAll();
    const key = (s: Sample) => `${s.labels.node_guid}/${s.labels.port}`;
    const all = find(whole, EDGE.bytes).map(key).sort();
    expect(all).toHaveLength(24);
    for (const count of [2, 3, 4]) {
      const shards = await Promise.all(
        Array.from({ length: count }, (_, i) => scrapeAll({ index: i + 1, count })),
      );
      expect(shards.flatMap((s) => find(s, EDGE.bytes).map(key)).sort()).toEqual(all);
      const sum = (name: string, labels = {}) =>
        shards.reduce((n, s) => n + find(s, name, labels).reduce((m, x) => m + x.value, 0), 0);
      expect(sum(EDGE.hostBytes)).toBeCloseTo(value(whole, EDGE.hostBytes) as number, 3);
      for (const kind of ['isl', 'host'])
        expect(sum(EDGE.directions, { kind })).toBe(
          find(whole, EDGE.directions, { kind }).reduce((m, x) => m + x.value, 0),
        );
    }
  });
});

describe('rates at the edge with the source’s layout token', () => {
  /** A sweep's rates and far ends by port key, whatever the order of its ports. */
  const byKey = (sweep: EdgeSweep) =>
    Object.fromEntries(
      sweep.snapshot.ports.map((p, i) => {
        const r = sweep.remoteIndex[i] as number;
        const far = r >= 0 ? sweep.snapshot.ports[r] : undefined;
        return [
          `${p.nodeGuid}/${p.portNumber}`,
          { rates: sweep.rates[i], far: far ? `${far.nodeGuid}/${far.portNumber}` : null },
        ];
      }),
    );

  it('gives the rates it gives without one, over reads that keep the order and reads that change it', () => {
    fc.assert(
      fc.property(
        // Per read: keep the layout (and the order) of the read before, or a new order and token.
        fc.array(fc.option(fc.array(fc.nat(3), { minLength: 4, maxLength: 4 }), { nil: undefined }), {
          minLength: 2,
          maxLength: 8,
        }),
        fc.boolean(),
        (steps, sharded) => {
          const mine = sharded ? (p: PortSample) => p.nodeType === 'switch' : undefined;
          const withToken = new EdgeRates();
          const without = new EdgeRates();
          let order = [0, 1, 2, 3];
          let layout: object = {};
          steps.forEach((shuffle, k) => {
            if (shuffle !== undefined) {
              // A permutation from the drawn keys: each position takes the next unused index.
              const rest = [0, 1, 2, 3];
              order = shuffle.map((d) => rest.splice(d % rest.length, 1)[0] as number);
              layout = {};
            }
            const read = snapshot(1000 * (k + 1), steady(k));
            const ports = order.map((i) => read.ports[i] as PortSample);
            const a = withToken.update({ ...read, ports, layout }, read.countersReadAtMs as number, mine);
            const b = without.update({ ...read, ports }, read.countersReadAtMs as number, mine);
            expect(byKey(a)).toEqual(byKey(b));
          });
        },
      ),
    );
  });
});
