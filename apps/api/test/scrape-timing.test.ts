import { buildScenario } from '@fabscope/topology';
import { describe, expect, it, vi } from 'vitest';
import { configFromEnv, defaultSampleIntervalMs } from '../src/config.ts';
import { LinkIndex } from '../src/lib/link-index.ts';
import { scrapeTiming } from '../src/lib/staleness.ts';
import { Sampler } from '../src/sampler.ts';
import type { MetricsStore } from '../src/store/types.ts';

describe('scrapeTiming', () => {
  it('keeps the small-fabric limits: timeout 5 intervals, stale after 3 intervals + 0.5 s', () => {
    expect(scrapeTiming(1000, null)).toEqual({ periodMs: 1000, timeoutMs: 5000, staleAfterMs: 3500 });
    expect(scrapeTiming(1000, 40)).toEqual({ periodMs: 1000, timeoutMs: 5000, staleAfterMs: 3540 });
  });

  it('a scrape longer than the interval skips ticks: the period and both limits grow with it', () => {
    // 2.9 s at 1 s: a scrape starts every 3 s, and the newest sample is up to 5.9 s old.
    const timing = scrapeTiming(1000, 2900);
    expect(timing.periodMs).toBe(3000);
    expect(timing.staleAfterMs).toBe(3 * 3000 + 2900 + 500);
    expect(timing.timeoutMs).toBe(3 * 2900);
    expect(timing.staleAfterMs).toBeGreaterThan(timing.periodMs + 2900);
  });

  it('a 4 s scrape at a 10 s interval is fresh; it goes stale after two missed scrapes', () => {
    const timing = scrapeTiming(10_000, 4000);
    expect(timing.periodMs).toBe(10_000);
    expect(timing.timeoutMs).toBe(50_000);
    expect(timing.staleAfterMs).toBe(34_500);
  });

  it('gives whole milliseconds (AbortSignal.timeout takes integers) and lets fixed values win', () => {
    const timing = scrapeTiming(1000, 2222.4);
    expect(Number.isInteger(timing.timeoutMs)).toBe(true);
    expect(Number.isInteger(timing.staleAfterMs)).toBe(true);
    expect(scrapeTiming(1000, 5000, { timeoutMs: 123, staleAfterMs: 456 })).toMatchObject({
      timeoutMs: 123,
      staleAfterMs: 456,
    });
    expect(() => scrapeTiming(0, null)).toThrow(RangeError);
  });
});

describe('default sampling interval', () => {
  it('is 1 s up to 20k ports, 2 s up to 60k, 10 s beyond; the environment wins', () => {
    expect(defaultSampleIntervalMs(buildScenario('ar-demo'))).toBe(1000);
    expect(defaultSampleIntervalMs(buildScenario('fat-tree-1152'))).toBe(1000);
    const links = (n: number) => ({ links: new Array(n / 2) });
    expect(defaultSampleIntervalMs(links(41_472))).toBe(2000); // fat-tree-6912
    expect(defaultSampleIntervalMs(links(165_888))).toBe(10_000); // fat-tree-27648
    expect(configFromEnv({}).sampleIntervalMs).toBeUndefined();
    expect(configFromEnv({ FABSCOPE_SAMPLE_INTERVAL_MS: '500' }).sampleIntervalMs).toBe(500);
    expect(() => configFromEnv({ FABSCOPE_SAMPLE_INTERVAL_MS: '50' })).toThrow(/100..60000/);
  });
});

describe('sampler health with a slow store', () => {
  const store = (age: number, staleAfterSeconds?: number): MetricsStore => ({
    kind: 'embedded',
    rates: async () => ({
      timeMs: Date.now(),
      ok: true,
      lastSampleAgeSeconds: age,
      ports: new Map(),
      ...(staleAfterSeconds === undefined ? {} : { staleAfterSeconds }),
    }),
    close: async () => undefined,
  });
  const index = new LinkIndex(buildScenario('ar-demo'));

  it('is ok while the newest sample is within the store limit, even past 5 s', async () => {
    expect((await new Sampler(store(11, 34.5), index).sample()).health.status).toBe('ok');
    expect((await new Sampler(store(36, 34.5), index).sample()).health.status).toBe('stale');
    // Without a limit from the store (Prometheus), 5 s as before.
    expect((await new Sampler(store(4.9), index).sample()).health.status).toBe('ok');
    expect((await new Sampler(store(6), index).sample()).health.status).toBe('stale');
  });

  it('ages between ticks: a sampler that stops ticking (a busy process, a hung store) turns stale on time', async () => {
    const sampler = new Sampler(store(1), index, 1000);
    const tick = await sampler.sample();
    expect(tick.health).toMatchObject({ status: 'ok', intervalMs: 1000, staleAfterSeconds: 5 });
    const later = sampler.healthNow(Date.now() + 4500).health;
    expect(later.status).toBe('stale');
    expect(later.lastSampleAgeSeconds).toBeGreaterThanOrEqual(5.5);
    expect((await sampler.current()).health.lastSampleAgeSeconds).toBeGreaterThanOrEqual(1);
  });

  it('owns one staleness limit: at least 5 s, 2.5 intervals, or the store limit, and sends it', async () => {
    expect((await new Sampler(store(1), index, 10_000).sample()).health.staleAfterSeconds).toBe(25);
    expect((await new Sampler(store(1, 34.5), index, 10_000).sample()).health.staleAfterSeconds).toBe(34.5);
    expect((await new Sampler(store(1), index, 2000).sample()).health.staleAfterSeconds).toBe(5);
  });

  it('says degraded when the store fails, and hides its addresses from the message', async () => {
    const failing: MetricsStore = {
      kind: 'prometheus',
      rates: async () => ({
        timeMs: Date.now(),
        ok: false,
        error:
          'Prometheus at http://10.1.2.3:9090/api/v1/query unreachable: connect ECONNREFUSED 10.1.2.3:9090',
        lastSampleAgeSeconds: null,
        ports: new Map(),
      }),
      close: async () => undefined,
    };
    const sampler = new Sampler(failing, index);
    const { health } = await sampler.sample();
    expect(health.status).toBe('degraded');
    expect(health.error).toBe('Prometheus at <address> unreachable: connect ECONNREFUSED <address>');
    expect(sampler.healthNow().detailedError).toMatch(/10\.1\.2\.3:9090/);
  });
});

describe('sampler clock', () => {
  it('ticks on a fixed clock: a late tick delays that tick only, the next one keeps its slot', async () => {
    let calls = 0;
    const counting: MetricsStore = {
      kind: 'embedded',
      rates: async () => {
        calls++;
        return { timeMs: Date.now(), ok: true, lastSampleAgeSeconds: 0, ports: new Map() };
      },
      close: async () => undefined,
    };
    let t = 0;
    const sampler = new Sampler(counting, new LinkIndex(buildScenario('ar-demo')), 1000, () => t);
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    // A tick takes turns of the (real) event loop between its stages: let them run, as time would.
    const advance = async (ms: number) => {
      await vi.advanceTimersByTimeAsync(ms);
      for (let i = 0; i < 20; i++) await new Promise((resolve) => setImmediate(resolve));
    };
    try {
      sampler.start();
      await advance(0);
      expect(calls).toBe(1);
      t = 1000;
      await advance(1000);
      expect(calls).toBe(2);
      // The event loop was blocked: the tick due at 2000 runs at 2400.
      t = 2400;
      await advance(1000);
      expect(calls).toBe(3);
      // The next is still due at 3000, 600 ms later (setInterval would wait 1000).
      t = 2999;
      await advance(599);
      expect(calls).toBe(3);
      t = 3000;
      await advance(1);
      expect(calls).toBe(4);
      // Blocked for more than a whole tick: the slots gone by are skipped, not piled up.
      t = 5500;
      await advance(1000);
      expect(calls).toBe(5);
      expect(sampler.skippedTicks).toBe(1);
      t = 6000;
      await advance(500);
      expect(calls).toBe(6);
    } finally {
      await sampler.stop();
      vi.useRealTimers();
    }
  });
});

describe('sampler on the store clock', () => {
  it("ticks after each of the store's scrapes, once more when one lands during a tick, and not on its own within two intervals", async () => {
    const listeners = new Set<() => void>();
    let calls = 0;
    let finishRates: (() => void) | null = null;
    const scraping: MetricsStore = {
      kind: 'embedded',
      rates: async () => {
        calls++;
        // The second tick is slow: a scrape lands while it runs.
        if (calls === 2) await new Promise<void>((resolve) => (finishRates = resolve));
        return { timeMs: Date.now(), ok: true, lastSampleAgeSeconds: 0, ports: new Map() };
      },
      onScrape: (listener) => {
        listeners.add(listener);
        return () => listeners.delete(listener);
      },
      close: async () => undefined,
    };
    const scraped = () => {
      for (const l of listeners) l();
    };
    // Time passes on a fake clock; a tick's turns of the (real) event loop are let run.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'] });
    const wait = async (ms: number) => {
      await vi.advanceTimersByTimeAsync(ms);
      for (let i = 0; i < 20; i++) await new Promise((resolve) => setImmediate(resolve));
    };
    const settle = () => wait(5);
    const sampler = new Sampler(scraping, new LinkIndex(buildScenario('ar-demo')), 1000);
    sampler.start();
    try {
      await settle();
      expect(calls).toBe(1);
      // No tick of its own while a scrape may still come (the monotonic clock here stays within two intervals).
      await wait(1200);
      expect(calls).toBe(1);
      scraped();
      await settle();
      expect(calls).toBe(2);
      // Two scrapes land during the slow tick: one more tick after it, with the newest readings.
      scraped();
      scraped();
      await settle();
      expect(calls).toBe(2);
      (finishRates as (() => void) | null)?.();
      await settle();
      expect(calls).toBe(3);
      await sampler.stop();
      scraped();
      await settle();
      expect(calls).toBe(3);
      expect(listeners.size).toBe(0);
    } finally {
      await sampler.stop();
      vi.useRealTimers();
    }
  });

  function quietStore(staleAfterSeconds?: number) {
    const listeners = new Set<() => void>();
    const counted = { calls: 0 };
    const store: MetricsStore = {
      kind: 'embedded',
      rates: async () => {
        counted.calls++;
        return {
          timeMs: Date.now(),
          ok: true,
          lastSampleAgeSeconds: 0,
          ports: new Map(),
          ...(staleAfterSeconds === undefined ? {} : { staleAfterSeconds }),
        };
      },
      onScrape: (listener) => {
        listeners.add(listener);
        return () => listeners.delete(listener);
      },
      close: async () => undefined,
    };
    return { store, counted, listeners };
  }

  it("with the store's own staleness limit, ticks on its own only once the data has gone stale", async () => {
    const { store, counted } = quietStore(3.5);
    const clock = { now: 0 };
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'] });
    const sampler = new Sampler(store, new LinkIndex(buildScenario('ar-demo')), 1000, () => clock.now);
    sampler.start();
    try {
      const wait = async (ms: number) => {
        for (let t = 0; t < ms; t += 100) {
          clock.now += 100;
          await vi.advanceTimersByTimeAsync(100);
        }
        for (let i = 0; i < 20; i++) await new Promise((resolve) => setImmediate(resolve));
      };
      await wait(3400);
      expect(counted.calls).toBe(1);
      await wait(1000);
      expect(counted.calls).toBe(2);
    } finally {
      await sampler.stop();
      vi.useRealTimers();
    }
  });

  it('ticks on its own clock when no scrape lands for two intervals (a stalled collector): the live view goes unknown on time', async () => {
    const listeners = new Set<() => void>();
    let calls = 0;
    const clock = { now: 0 };
    const scraping: MetricsStore = {
      kind: 'embedded',
      rates: async () => {
        calls++;
        return { timeMs: Date.now(), ok: true, lastSampleAgeSeconds: 0, ports: new Map() };
      },
      onScrape: (listener) => {
        listeners.add(listener);
        return () => listeners.delete(listener);
      },
      close: async () => undefined,
    };
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'] });
    const wait = async (ms: number) => {
      for (let t = 0; t < ms; t += 100) {
        clock.now += 100;
        await vi.advanceTimersByTimeAsync(100);
      }
      for (let i = 0; i < 20; i++) await new Promise((resolve) => setImmediate(resolve));
    };
    const sampler = new Sampler(scraping, new LinkIndex(buildScenario('ar-demo')), 1000, () => clock.now);
    sampler.start();
    try {
      await wait(5);
      expect(calls).toBe(1);
      // Scrapes every second: every tick is a scrape's.
      for (let i = 0; i < 3; i++) {
        await wait(1000);
        for (const l of listeners) l();
        await wait(5);
      }
      expect(calls).toBe(4);
      // The scrapes stop: a tick every interval from two intervals after the last one on.
      await wait(1900);
      expect(calls).toBe(4);
      await wait(3000);
      expect(calls).toBe(7);
    } finally {
      await sampler.stop();
      vi.useRealTimers();
    }
  });
});
