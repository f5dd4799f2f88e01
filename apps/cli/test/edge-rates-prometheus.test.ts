import { PromqlClient } from '@fabscope/api';
import {
  createFabricRegistry,
  type FabricSnapshot,
  type MetricsServer,
  type PortSample,
  startMetricsServer,
} from '@fabscope/collectors';
import { EDGE_SERIES as EDGE } from '@fabscope/contracts/metrics';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type PrometheusServer, startPrometheus } from '../src/prometheus/prometheus.ts';
import { eventually } from './eventually.ts';

// The collector's rates at the edge against PromQL over its own raw counters, for the same reads:
// a source in the test answers set counters at the times Prometheus' scrapes read them, a real
// Prometheus scrapes both families from one collector, and every edge sample must equal rate()
// and deriv() of the raw counters between the same two reads — within 0.1 % — across a
// fabric-wide clear (a gap), a failed read (a gap at the next sweep, never one rate over two
// intervals), and one port's restart (its directions carried by the far end: no spike).

const HOST = '0x00117501000000a1';
const SW1 = '0x0011750101000001';
const SW2 = '0x0011750101000002';
const RATE = 12.5e9;
const TICK = 6.4e-10;

/** The fabric: nodeA/1 ↔ edge1/1 (a host link), edge1/2 ↔ edge2/1 (an ISL). */
const CABLES: [
  string,
  string,
  PortSample['nodeType'],
  number,
  string,
  string,
  PortSample['nodeType'],
  number,
][] = [
  [HOST, 'nodeA', 'host', 1, SW1, 'edge1', 'switch', 1],
  [SW1, 'edge1', 'switch', 2, SW2, 'edge2', 'switch', 1],
];
interface End {
  guid: string;
  name: string;
  type: PortSample['nodeType'];
  port: number;
  peer: End | undefined;
}
const ENDS: End[] = CABLES.flatMap(([ag, an, at, ap, bg, bn, bt, bp]) => {
  const a: End = { guid: ag, name: an, type: at, port: ap, peer: undefined };
  const b: End = { guid: bg, name: bn, type: bt, port: bp, peer: a };
  a.peer = b;
  return [a, b];
});
const keyOf = (e: { guid: string; port: number }) => `${e.guid}/${e.port}`;

/** Sweep numbers (the k-th read) where the plan does something. */
const FABRIC_CLEAR = 7;
const FAILED_READ = 12;
const HOST_RESTART = 16;
const SWEEPS = 21;

/** Bytes/s each end sends at sweep k (varying, so a rate over the wrong interval would show). */
const sendRate = (end: number, k: number) => (2 + end) * 1e9 * (1 + 0.5 * Math.sin(k + end));

interface Read {
  k: number;
  timeMs: number;
  failed: boolean;
}

describe('rates at the edge equal rate() and deriv() of the raw counters over the same reads', () => {
  let prometheus: PrometheusServer;
  let collector: MetricsServer;
  const reads: Read[] = [];
  /** Per port: tx bytes, rx bytes, tx packets, rx packets, XmitWait, symbol errors. */
  const counters = new Map<string, number[]>();

  beforeAll(async () => {
    for (const e of ENDS) counters.set(keyOf(e), [1e12, 2e12, 1e9, 2e9, 5e11, 10]);
    let k = 0;
    let lastMs = Date.now();
    const source = {
      name: 'planned',
      read: async (): Promise<FabricSnapshot> => {
        k++;
        const timeMs = Date.now();
        const seconds = (timeMs - lastMs) / 1000;
        lastMs = timeMs;
        // Traffic moves the counters whether or not the read answers.
        ENDS.forEach((e, i) => {
          const mine = counters.get(keyOf(e)) as number[];
          const theirs = counters.get(keyOf(e.peer as End)) as number[];
          const bytes = Math.round(sendRate(i, k) * seconds);
          mine[0] = (mine[0] as number) + bytes;
          theirs[1] = (theirs[1] as number) + bytes;
          mine[2] = (mine[2] as number) + Math.round(bytes / 4096);
          theirs[3] = (theirs[3] as number) + Math.round(bytes / 4096);
          mine[4] = (mine[4] as number) + Math.round((0.1 + 0.05 * i) * (seconds / TICK));
          if (e.type === 'switch') mine[5] = (mine[5] as number) + (k % 3 === 0 ? 7 * k : 0);
        });
        if (k === FABRIC_CLEAR) for (const c of counters.values()) c.fill(0);
        if (k === HOST_RESTART) (counters.get(keyOf(ENDS[0] as End)) as number[]).fill(0);
        const failed = k === FAILED_READ;
        reads.push({ k, timeMs, failed });
        if (failed) throw new Error('the subnet manager did not answer');
        return {
          fabric: 'edge-test',
          fabricType: 'omnipath',
          countersReadAtMs: timeMs,
          ports: ENDS.map((e): PortSample => {
            const c = counters.get(keyOf(e)) as number[];
            const peer = e.peer as End;
            return {
              nodeGuid: e.guid,
              nodeName: e.name,
              nodeType: e.type,
              portNumber: e.port,
              lid: 1,
              rateBytesPerSecond: RATE,
              linkUp: true,
              remote: { nodeGuid: peer.guid, nodeName: peer.name, portNumber: peer.port },
              transmitBytes: c[0] as number,
              receiveBytes: c[1] as number,
              transmitPackets: c[2] as number,
              receivePackets: c[3] as number,
              transmitWaitTicks: c[4] as number,
              transmitWaitTickSeconds: TICK,
              errors: { symbolErrors: c[5] as number },
            };
          }),
        };
      },
    };
    collector = await startMetricsServer(createFabricRegistry({ source, rawCounters: true }).scrapeChunks, {
      host: '127.0.0.1',
    });
    prometheus = await startPrometheus({ targets: [new URL(collector.url).host] });
    await eventually(() => {
      if (reads.length < SWEEPS) throw new Error(`${reads.length} reads`);
      return Promise.resolve();
    }, 90_000);
  }, 120_000);
  afterAll(async () => {
    await prometheus?.stop();
    await collector?.close();
  });

  it('every edge sample, at every read, within 0.1 %; gaps where a counter went back or a read failed', async () => {
    const client = new PromqlClient({ url: prometheus.url, timeoutMs: 10_000 });
    const done = reads.slice(0, SWEEPS);
    const endMs = (done[done.length - 1] as Read).timeMs + 1;
    // Every sample Prometheus holds of a family, by series key and time.
    const held = async (family: string, extra = '') => {
      const url = new URL('/api/v1/query', prometheus.url);
      url.searchParams.set('query', `${family}${extra}[10m]`);
      url.searchParams.set('time', (endMs / 1000).toFixed(3));
      const body = (await (await fetch(url)).json()) as {
        data: { result: { metric: Record<string, string>; values: [number, string][] }[] };
      };
      const out = new Map<string, Map<number, number>>();
      for (const s of body.data.result) {
        const key = `${s.metric.node_guid}/${s.metric.port}${s.metric.field ? `:${s.metric.field}` : ''}`;
        out.set(key, new Map(s.values.map(([t, v]) => [Math.round(t * 1000), Number(v)])));
      }
      return out;
    };
    /** PromQL's f(family[window]) per port at `timeMs`, left out where the window holds a reset. */
    const promql = async (fn: 'rate' | 'deriv', family: string, windowMs: number, timeMs: number) => {
      const range = `${family}[${windowMs}ms]`;
      const answer = await client.query(`${fn}(${range}) unless resets(${range}) > 0`, timeMs);
      const count = await client.query(`count_over_time(${range})`, timeMs);
      // The window holds exactly the two reads (Prometheus 2 includes both ends of a range).
      for (const c of count) expect(c.value[1], `${range} at ${timeMs}`).toBe('2');
      return new Map(answer.map((s) => [`${s.metric.node_guid}/${s.metric.port}`, Number(s.value[1])]));
    };

    const edge = {
      bytes: await held(EDGE.bytes),
      packets: await held(EDGE.packets),
      wait: await held(EDGE.wait),
      utilization: await held(EDGE.utilization),
      symbolErrors: await held(EDGE.portErrors, '{field="symbolErrors"}'),
    };
    let compared = 0;
    let worst = 0;
    const byKind = new Map<string, number>();
    const gaps: number[] = [];
    const close = (actual: number | undefined, expected: number, what: string) => {
      expect(actual, what).toBeDefined();
      const off = expected === 0 ? Math.abs(actual as number) : Math.abs((actual as number) / expected - 1);
      worst = Math.max(worst, off);
      compared++;
      const kind = what.replace(/^sweep \d+ (\w+( \w+)?) .*$/, '$1');
      byKind.set(kind, (byKind.get(kind) ?? 0) + 1);
      expect(off, `${what}: edge ${actual}, PromQL ${expected}`).toBeLessThan(0.001);
    };
    for (let i = 1; i < done.length; i++) {
      const read = done[i] as Read;
      const previous = done[i - 1] as Read;
      const t = read.timeMs;
      const edgeAt = (series: Map<string, Map<number, number>>, key: string) => series.get(key)?.get(t);
      // A failed read leaves no sample; the read after it has nothing to rate against (a gap).
      if (read.failed || previous.failed || read.k === FABRIC_CLEAR) {
        for (const e of ENDS) {
          expect(edgeAt(edge.bytes, keyOf(e)), `sweep ${read.k}: ${keyOf(e)} is a gap`).toBeUndefined();
          expect(edgeAt(edge.packets, keyOf(e))).toBeUndefined();
          expect(edgeAt(edge.wait, keyOf(e))).toBeUndefined();
        }
        gaps.push(read.k);
        continue;
      }
      const window = t - previous.timeMs;
      for (const fn of ['rate', 'deriv'] as const) {
        const tx = await promql(fn, 'fabscope_port_data_transmitted_bytes_total', window, t);
        const rx = await promql(fn, 'fabscope_link_data_received_bytes_total', window, t);
        const txPkts = await promql(fn, 'fabscope_port_packets_transmitted_total', window, t);
        const rxPkts = await promql(fn, 'fabscope_port_packets_received_total', window, t);
        const wait = await promql(fn, 'fabscope_port_transmit_wait_total', window, t);
        const symbols = await promql(fn, 'fabscope_port_symbol_error_total', window, t);
        for (const e of ENDS) {
          const key = keyOf(e);
          const what = (name: string) => `sweep ${read.k} ${name} ${e.name}/${e.port} (${fn})`;
          // Either end alone is enough: max of what PromQL could rate (a restarted end is left out).
          const known = (...values: (number | undefined)[]) =>
            values.filter((v) => v !== undefined) as number[];
          const bytes = known(tx.get(key), rx.get(key));
          const packets = known(txPkts.get(key), rxPkts.get(keyOf(e.peer as End)));
          if (bytes.length === 0) {
            expect(edgeAt(edge.bytes, key), what('bytes')).toBeUndefined();
            continue;
          }
          close(edgeAt(edge.bytes, key), Math.max(...bytes), what('bytes'));
          close(edgeAt(edge.utilization, key), Math.min(1, Math.max(...bytes) / RATE), what('utilization'));
          close(edgeAt(edge.packets, key), Math.max(...packets), what('packets'));
          const ticks = wait.get(key);
          if (ticks === undefined) expect(edgeAt(edge.wait, key), what('wait')).toBeUndefined();
          else close(edgeAt(edge.wait, key), Math.min(1, ticks * TICK), what('wait'));
          const errors = symbols.get(key);
          const detail = edgeAt(edge.symbolErrors, `${key}:symbolErrors`);
          if (errors !== undefined && errors > 0) close(detail, errors, what('symbol errors'));
          if (detail !== undefined && detail > 0) close(detail, errors as number, what('symbol errors'));
        }
      }
      // The restarted host's own counters are a gap; its cable's directions come from edge1/1.
      if (read.k === HOST_RESTART) {
        const host = keyOf(ENDS[0] as End);
        expect(edgeAt(edge.wait, host), 'the restarted sender’s XmitWait is a gap').toBeUndefined();
        expect(edgeAt(edge.bytes, host)).toBeDefined();
      }
    }
    // Nothing at any other time: the edge writes a sample per read, never between or beyond.
    const times = new Set(done.map((r) => r.timeMs));
    for (const series of edge.bytes.values()) for (const t of series.keys()) expect(times.has(t)).toBe(true);
    expect(gaps).toEqual([FABRIC_CLEAR, FAILED_READ, FAILED_READ + 1]);
    console.log(
      `edge vs PromQL: ${compared} comparisons (${[...byKind].map(([k, n]) => `${k} ${n}`).join(', ')}) over ${done.length} reads, gaps at sweeps ${gaps.join(', ')}; worst relative difference ${worst.toExponential(2)}`,
    );
    expect(compared).toBeGreaterThan(200);
    expect(byKind.get('symbol errors')).toBeGreaterThan(0);
  }, 120_000);
});
