import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from './eventually.ts';
import { type PairThroughPrometheus, pairThroughPrometheus } from './pair-through-prometheus.ts';

// A loaded collector host serves Prometheus' scrapes late by a varying few hundred ms. Prometheus
// stamps a sample with the time its scrape started, so unless the collector stamps what it read
// with the time it read it, a 5 s rate over four such intervals reads up to 10 % off here (26.5
// GB/s seen on the chart for a 24.75 GB/s fabric); rate()'s extrapolation over unevenly spaced
// samples read up to 12 % low. The collector now rates each sweep itself, between the read times
// of two reads, and stamps the rates with the later one. Real emulator, collector and Prometheus;
// the late reads are the only thing staged.
describe('rates at the edge stamped with their read time: exact however late the scrape is served', () => {
  let run: PairThroughPrometheus;

  beforeAll(async () => {
    // Delays cycling 0, 100, 200, 300, 400 ms (inside the 1 s scrape timeout): every window of five
    // scrapes holds the extremes.
    let scrape = 0;
    run = await pairThroughPrometheus((real) => ({
      name: real.name,
      read: async (signal) => {
        await new Promise((resolve) => setTimeout(resolve, (scrape++ % 5) * 100));
        return real.read(signal);
      },
    }));
  }, 60_000);
  afterAll(() => run?.stop());

  it('keeps every point of the collector’s host rate within 0.5 % of the emulator’s own rate', async () => {
    // The emulator's rate: its host transmit counters over a long interval (exact, no scrape).
    const hostTransmitBytes = async () => {
      const doc = (await (await fetch(`${run.emulatorUrl}/v1/ports`)).json()) as {
        timeMs: number;
        dataUnitBytes: number;
        ports: { nodeType: string; counters: { XmitData: string } }[];
      };
      const flits = doc.ports
        .filter((p) => p.nodeType === 'host')
        .reduce((sum, p) => sum + Number(p.counters.XmitData), 0);
      return { timeMs: doc.timeMs, bytes: flits * doc.dataUnitBytes };
    };
    const first = await hostTransmitBytes();
    const query = 'fabscope_fabric_host_data_bytes_per_second';
    // Rates of sweeps of traffic (starting a few seconds after both the pair and Prometheus' first
    // sample), for 12 s.
    const firstSampleSeconds = await eventually(async () => {
      const url = `${run.prometheus.url}/api/v1/query?query=${encodeURIComponent(`timestamp(${query})[1m:1s]`)}`;
      const body = (await (await fetch(url)).json()) as {
        data: { result: { values: [number, string][] }[] };
      };
      const first = body.data.result[0]?.values[0]?.[1];
      expect(first).toBeDefined();
      return Number(first);
    }, 30_000);
    const fromSeconds = Math.max(run.startedMs / 1000, firstSampleSeconds) + 6;
    const points = await eventually(
      async () => {
        const end = Date.now() / 1000;
        expect(end - fromSeconds).toBeGreaterThanOrEqual(12);
        const url = `${run.prometheus.url}/api/v1/query_range?query=${encodeURIComponent(query)}&start=${fromSeconds}&end=${end}&step=0.5`;
        const body = (await (await fetch(url)).json()) as {
          data: { result: { values: [number, string][] }[] };
        };
        const values = (body.data.result[0]?.values ?? []).map(([, v]) => Number(v));
        // twelve seconds of rates, each of one sweep of traffic
        expect(values.length).toBeGreaterThanOrEqual(20);
        expect(Math.min(...values)).toBeGreaterThan(1e9);
        return values;
      },
      45_000,
      1000,
    );
    const last = await hostTransmitBytes();
    const truth = (last.bytes - first.bytes) / ((last.timeMs - first.timeMs) / 1000);
    expect(truth).toBeGreaterThan(12e9);
    const worst = Math.max(...points.map((v) => Math.abs(v / truth - 1)));
    expect(worst, `worst point ${(worst * 100).toFixed(2)} % off ${truth} B/s`).toBeLessThan(0.005);
  }, 90_000);
});
