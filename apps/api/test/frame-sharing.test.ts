import { buildScenario } from '@fabscope/topology';
import { afterEach, describe, expect, it } from 'vitest';
import { linkUpAt } from '../src/lib/frame.ts';
import { frameOf } from '../src/lib/frame-from-rates.ts';
import { LinkIndex } from '../src/lib/link-index.ts';
import { Sampler } from '../src/sampler.ts';
import { EmbeddedStore } from '../src/store/embedded.ts';
import { LOAD_SCALE } from '../src/store/history-encoding.ts';

const fabric = buildScenario('ar-demo');
const index = new LinkIndex(fabric);
const guid = (name: string) => fabric.nodeByName.get(name)?.guid as string;
const TX = 'fabscope_port_data_transmitted_bytes_total';
const UP = 'fabscope_port_link_up';
const labels = (node: string, port: number) =>
  `{fabric="ar-demo",node_guid="${guid(node)}",node_name="${node}",node_type="switch",port="${port}"}`;

/** edge1's port 4 (towards core2) sends 10 GB/s; every scrape `clock.now` moves one interval on. */
function scrapedStore(intervalMs: number) {
  const clock = { now: 1_000_000 };
  const store = new EmbeddedStore({
    targets: ['http://collector:9466/metrics'],
    scrapeIntervalMs: intervalMs,
    now: () => clock.now,
    fetch: (async () => {
      const bytes = ((clock.now - 1_000_000) / 1000) * 10e9;
      return new Response(
        [`${TX}${labels('edge1', 4)} ${bytes}`, `${UP}${labels('edge1', 4)} 1`, ''].join('\n'),
      );
    }) as typeof fetch,
  });
  // Which rate windows were asked for (undefined: the live one).
  const windows: (number | undefined)[] = [];
  // What each ask was answered with: one computation per scrape is one promise, shared.
  const answers: Promise<unknown>[] = [];
  const rates = store.rates.bind(store);
  store.rates = (signal?: AbortSignal, windowMs?: number) => {
    windows.push(windowMs);
    const answer = rates(signal, windowMs);
    answers.push(answer);
    return answer;
  };
  return { store, clock, windows, answers };
}

let stop: (() => Promise<void>) | undefined;
afterEach(async () => {
  await stop?.();
  stop = undefined;
});

describe('one frame per scrape: the sampler and the embedded history share it', () => {
  for (const [intervalMs, shared] of [
    [10_000, true],
    [1000, false],
  ] as const) {
    it(`at a ${intervalMs / 1000} s interval the history ${shared ? 'records the tick’s own snapshot' : 'reads its own 5 s window'}`, async () => {
      const { store, clock, windows, answers } = scrapedStore(intervalMs);
      const history = store.timeQueries(index);
      const sampler = new Sampler(store, index, intervalMs);
      stop = async () => {
        await sampler.stop();
        await store.close();
      };
      sampler.start();
      // The first sample (from start) done: each scrape's tick then starts as the scrape ends,
      // before the history reads (a tick still running when a scrape lands is followed by another).
      await sampler.sample();
      for (let i = 0; i < 8; i++) {
        await store.scrapeOnce();
        await sampler.sample();
        await history.settled();
        clock.now += intervalMs;
      }
      expect(windows.includes(5000)).toBe(!shared);
      // Shared: the tick and the history of each scrape ask, and the rates are computed once.
      if (shared) {
        expect(answers.length).toBeGreaterThanOrEqual(16);
        expect(new Set(answers).size).toBeLessThanOrEqual(8 + 1);
      }
      const tick = await sampler.current();
      const c = index.channels.findIndex((ch) => ch.fixed.id === 'edge1/4->core2/1');
      const u = tick.frame.utilization[c] as number;
      expect(u).toBeCloseTo(10e9 / (index.capacity[c] as number), 6);
      // The history's newest frame holds the tick's load and link state (its 16-bit encoding).
      const newest = history.history.frameAt(Number.POSITIVE_INFINITY, Number.POSITIVE_INFINITY);
      const columns = history.history.frameColumns(newest);
      expect((columns.load[c] as number) / LOAD_SCALE).toBeCloseTo(u, 4);
      expect(columns.up[c]).toBe(1);
      expect(linkUpAt(tick.frame, c)).toBe(true);
      // And the tick's frame is the snapshot's frame, whoever computed it.
      const again = frameOf(index, await store.rates());
      expect(again.utilization[c]).toBe(u);
    });
  }
});
