import { buildScenario } from '@fabscope/topology';
import { describe, expect, it } from 'vitest';
import { Alarms } from '../src/events/alarms.ts';
import { CollectionWatch } from '../src/events/collection-watch.ts';
import { MemoryEventLog } from '../src/events/event-log.ts';
import { HealthWatch } from '../src/events/health-watch.ts';
import { LinkIndex } from '../src/lib/link-index.ts';
import { Sampler } from '../src/sampler.ts';
import { EmbeddedStore } from '../src/store/embedded.ts';

const fabric = buildScenario('ar-demo');
const index = new LinkIndex(fabric);
const guid = (name: string) => fabric.nodeByName.get(name)?.guid as string;
const labels = (node: string, port: number) =>
  `{fabric="ar-demo",node_guid="${guid(node)}",node_name="${node}",node_type="switch",port="${port}"}`;
const DIRECTION = 'edge1/4->core2/1';
const BYTES_PER_SECOND = 10e9;
/** Half the time waiting for credit: congestion 5 × its threshold (an `error` alarm). */
const WAIT_TICKS_PER_SECOND = 0.5e6;
const START_MS = 1_700_000_000_000;

/**
 * edge1/4 sends 10 GB/s, waiting half the time, stamped by its collector; from `stall.fromMs` to `stall.toMs` the
 * collector answers nothing (each scrape hangs until its 5 s timeout), as a SIGSTOPped one.
 */
function stallingCollector() {
  const clock = { now: START_MS };
  const stall = { fromMs: Number.POSITIVE_INFINITY, toMs: Number.POSITIVE_INFINITY };
  const store = new EmbeddedStore({
    targets: ['http://collector:9466/metrics'],
    scrapeIntervalMs: 1000,
    now: () => clock.now,
    fetch: (async () => {
      if (clock.now >= stall.fromMs && clock.now < stall.toMs) {
        clock.now += 5000;
        throw new DOMException('The operation was aborted due to timeout', 'TimeoutError');
      }
      const seconds = (clock.now - START_MS) / 1000;
      const at = labels('edge1', 4);
      return new Response(
        [
          `fabscope_port_data_transmitted_bytes_total${at} ${seconds * BYTES_PER_SECOND} ${clock.now}`,
          `fabscope_port_transmit_wait_total${at} ${seconds * WAIT_TICKS_PER_SECOND} ${clock.now}`,
          `fabscope_port_transmit_wait_tick_seconds${at} 1e-6`,
          `fabscope_port_rate_bytes_per_second${at} 12500000000`,
          `fabscope_port_link_up${at} 1`,
          '',
        ].join('\n'),
      );
    }) as typeof fetch,
  });
  return { store, clock, stall };
}

describe('a collector that stops answering for 30 s (embedded store, sampler, history, watches)', () => {
  it('leaves the live view and history unknown for the stall, one collection event each way, no alarm change', async () => {
    const { store, clock, stall } = stallingCollector();
    const log = new MemoryEventLog();
    const alarms = new Alarms(log);
    const collection = new CollectionWatch(log);
    const watch = new HealthWatch(log, index, undefined, alarms, collection);
    const history = store.timeQueries(index);
    const sampler = new Sampler(store, index, 1000);
    const channel = index.channelById.get(DIRECTION)?.index as number;
    const live: { timeMs: number; bytes: number }[] = [];
    sampler.onTick((tick) => {
      const timeMs = Date.parse(tick.time);
      live.push({ timeMs, bytes: tick.frame.bytesPerSecond[channel] as number });
      collection.observe(timeMs, tick.health, tick.frame);
      watch.observe(timeMs, tick.frame);
    });
    // One scrape a second (a hung one takes its 5 s), each followed by its tick, as the store's clock drives them.
    const runUntil = async (endMs: number) => {
      while (clock.now < endMs) {
        await store.scrapeOnce();
        await sampler.sample();
        await history.settled();
        clock.now += 1000;
      }
    };
    try {
      await runUntil(START_MS + 10_000);
      const raised = alarms.list(false).map((a) => a.id);
      expect(raised).toHaveLength(1);
      stall.fromMs = clock.now;
      stall.toMs = clock.now + 30_000;
      await runUntil(stall.toMs);
      // Kept raised through the stall, saying its value is unknown since the stall, and why.
      const [during] = alarms.list(false);
      expect(during?.id).toBe(raised[0]);
      expect(during?.unknown).toMatchObject({ count: 1, reason: 'no data from the collection' });
      await runUntil(stall.toMs + 10_000);
      expect(alarms.list(false)[0]?.unknown).toBeNull();

      const series = await history.linkRange([DIRECTION], {
        fromMs: START_MS + 2000,
        toMs: clock.now - 1000,
        stepMs: 1000,
      });
      const points = series[0]?.points ?? [];
      const unknown = points.filter((p) => p.bytesPerSecond === null).map((p) => p.timeMs);
      // Known points are the true rate, never 0 or a ramp; the unknown ones are one run from the staleness limit
      // (3.5 s) after the stop to the second reading after it (the first rate needs two readings).
      for (const p of points)
        if (p.bytesPerSecond !== null) expect(p.bytesPerSecond / BYTES_PER_SECOND).toBeCloseTo(1, 3);
      expect(unknown[0]).toBeGreaterThanOrEqual(stall.fromMs);
      expect(unknown[0]).toBeLessThanOrEqual(stall.fromMs + 4000);
      expect(unknown.at(-1)).toBeGreaterThanOrEqual(stall.toMs);
      expect(unknown.at(-1)).toBeLessThanOrEqual(stall.toMs + 1000);
      expect(unknown.length).toBe(((unknown.at(-1) as number) - (unknown[0] as number)) / 1000 + 1);
      // The live view: unknown from the staleness limit on, the true rate again with the second reading after it.
      for (const { timeMs, bytes } of live.filter((t) => t.timeMs > START_MS + 2000)) {
        if (timeMs > stall.fromMs + 3600 && timeMs <= stall.toMs) expect(bytes, String(timeMs)).toBeNaN();
        if (!Number.isNaN(bytes)) expect(bytes / BYTES_PER_SECOND).toBeCloseTo(1, 6);
      }
      expect((live.at(-1)?.bytes as number) / BYTES_PER_SECOND).toBeCloseTo(1, 6);

      const events = log.list(stall.fromMs, clock.now);
      expect(events.map((e) => [e.kind, e.severity])).toEqual([
        ['collection', 'warning'],
        ['collection', 'info'],
      ]);
      expect(events[0]?.detail).toMatch(/^no data since \d\d:\d\d:\d\d: /);
      expect(events[1]?.detail).toMatch(/for 3\d\.\d s/);
      expect(alarms.list(true).map((a) => [a.id, a.state])).toEqual([[raised[0], 'active']]);
    } finally {
      await sampler.stop();
      await store.close();
    }
  });
});
