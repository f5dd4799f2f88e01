import { ERROR_COUNTERS, PORT_GAUGES } from '@fabscope/contracts';
import { describe, expect, it, vi } from 'vitest';
import { portKey } from '../src/lib/port-rates.ts';
import { EmbeddedStore } from '../src/store/embedded.ts';

const GUID = '0x0011750000000001';
const TX = 'fabscope_port_data_transmitted_bytes_total';

/** One port's page: transmit bytes and link rate, labels as the fabric agent writes them. */
const page = (bytes: number) =>
  [
    `# TYPE ${TX} counter`,
    `${TX}{fabric="f",node_guid="${GUID}",node_type="switch",port="1"} ${bytes}`,
    '# TYPE fabscope_port_rate_bytes_per_second gauge',
    `fabscope_port_rate_bytes_per_second{fabric="f",node_guid="${GUID}",node_type="switch",port="1"} 12500000000`,
    '# TYPE fabscope_port_physical_state gauge',
    `fabscope_port_physical_state{fabric="f",node_guid="${GUID}",node_type="switch",port="1"} 5`,
    '',
  ].join('\n');

/**
 * A store whose scrapes take `scrapeMs` on its clock: the answer's body arrives in two halves,
 * the clock moving on in between (a big fabric's answer streams for seconds).
 */
function slowStore(scrapeMs: number, intervalMs = 1000) {
  const clock = { now: 1_000_000 };
  let bytes = 0;
  const urls: string[] = [];
  const store = new EmbeddedStore({
    targets: ['http://collector:9466/metrics'],
    scrapeIntervalMs: intervalMs,
    now: () => clock.now,
    fetch: (async (url: string) => {
      urls.push(String(url));
      const body = Buffer.from(page(bytes));
      const half = body.length >> 1;
      const stream = new ReadableStream<Uint8Array>({
        async start(controller) {
          controller.enqueue(body.subarray(0, half));
          await new Promise((resolve) => setTimeout(resolve, 1));
          clock.now += scrapeMs;
          controller.enqueue(body.subarray(half));
          controller.close();
        },
      });
      return new Response(stream, { status: 200 });
    }) as typeof fetch,
  });
  return {
    store,
    clock,
    urls,
    setBytes: (b: number) => {
      bytes = b;
    },
  };
}

describe('embedded store at fabric scale', () => {
  it('keeps rates exact when each scrape takes 4 s of a 10 s interval: stamped at the start, never stale', async () => {
    const { store, clock, setBytes } = slowStore(4000, 10_000);
    const rates: (number | null | undefined)[] = [];
    for (let i = 0; i < 5; i++) {
      // scrapes start every 10 s; 7.5 GB/s of transmit between starts
      setBytes(1e12 + i * 75e9);
      await store.scrapeOnce();
      const snapshot = await store.rates();
      expect(snapshot.ok).toBe(true);
      expect(snapshot.lastSampleAgeSeconds).toBe(4);
      expect(snapshot.staleAfterSeconds).toBe(34.5);
      rates.push(snapshot.ports.get(portKey(GUID, 1))?.transmitBytesPerSecond);
      clock.now += 10_000 - 4000;
    }
    expect(rates).toEqual([null, 7.5e9, 7.5e9, 7.5e9, 7.5e9]);
    expect(store.stats().recentDurationMs).toBe(4000);
  });

  it('a scrape longer than the interval is not stale (the old limit was 3 intervals + 0.5 s)', async () => {
    const { store, clock, setBytes } = slowStore(2900, 1000);
    for (let i = 0; i < 3; i++) {
      setBytes(1e12 + i * 3e10);
      await store.scrapeOnce();
      clock.now += 100; // the next tick after the scrape: 3 s between starts
    }
    // 2.9 s after the last scrape began, plus a whole period more: still fresh.
    clock.now += 3000;
    const snapshot = await store.rates();
    expect(snapshot.ports.get(portKey(GUID, 1))?.transmitBytesPerSecond).toBe(1e10);
    expect(store.timing().periodMs).toBe(3000);
    // Once scrapes stop, the data goes stale: three periods and a scrape after the last.
    clock.now += 3 * 3000 + 2900;
    expect((await store.rates()).ports.size).toBe(0);
  });

  it('keeps a counter reset a gap across slow scrapes, never a negative rate or a spike', async () => {
    const { store, clock, setBytes } = slowStore(3000, 5000);
    const seen: (number | null | undefined)[] = [];
    for (const b of [5e11, 5e11 + 25e9, 1e9, 1e9 + 25e9, 1e9 + 50e9]) {
      setBytes(b);
      await store.scrapeOnce();
      seen.push((await store.rates()).ports.get(portKey(GUID, 1))?.transmitBytesPerSecond);
      clock.now += 2000;
    }
    expect(seen).toEqual([null, 5e9, null, 5e9, 5e9]);
  });

  it('asks the fabric agent for the families it reads only', async () => {
    const { store, urls } = slowStore(10);
    await store.scrapeOnce();
    const url = new URL(urls[0] as string);
    expect(url.pathname).toBe('/metrics');
    expect(url.searchParams.getAll('name[]').sort()).toEqual(
      [
        'fabscope_port_data_received_bytes_total',
        TX,
        'fabscope_port_link_up',
        'fabscope_port_physical_state',
        'fabscope_port_packets_received_total',
        'fabscope_port_packets_transmitted_total',
        'fabscope_port_rate_bytes_per_second',
        'fabscope_port_transmit_wait_tick_seconds',
        'fabscope_port_transmit_wait_total',
        // the counters and gauges of the PM categories (docs/metrics.md)
        ...Object.values(ERROR_COUNTERS),
        ...Object.values(PORT_GAUGES),
      ].sort(),
    );
  });

  it("keeps a port's physical state as scraped, and leaves it out once it is stale", async () => {
    const { store, clock } = slowStore(10);
    await store.scrapeOnce();
    const [read] = await store.portTotals([portKey(GUID, 1)]);
    expect(read?.physicalState?.code).toBe(5);
    clock.now += 120_000;
    expect((await store.portTotals([portKey(GUID, 1)]))[0]?.physicalState).toBeUndefined();
  });

  it('a scrape that fails half-way through its body leaves no reading behind', async () => {
    let now = 1_000_000;
    let fail = false;
    const store = new EmbeddedStore({
      targets: ['http://collector:9466/metrics'],
      now: () => now,
      fetch: (async () =>
        new Response(
          fail
            ? `${page(2e12)}${TX}{node_guid="${GUID}",port="2"} zz\n`
            : page(1e12 + (now - 1_000_000) * 1e6),
        )) as typeof fetch,
    });
    await store.scrapeOnce();
    now += 1000;
    await store.scrapeOnce();
    expect((await store.rates()).ports.get(portKey(GUID, 1))?.transmitBytesPerSecond).toBe(1e9);
    fail = true;
    now += 1000;
    await store.scrapeOnce();
    const snapshot = await store.rates();
    expect(snapshot.ok).toBe(false);
    expect(snapshot.error).toMatch(/line 7: bad value "zz"/);
    expect(snapshot.ports.get(portKey(GUID, 1))?.transmitBytesPerSecond).toBe(1e9);
  });
});

describe('embedded store: error counters on big fabrics', () => {
  const SYMBOL = ERROR_COUNTERS.symbolErrors;
  const labels = `{fabric="f",node_guid="${GUID}",node_type="switch",port="1"}`;

  it('asks for the error families every 30 s at a 10 s interval; their rate spans two error readings', async () => {
    let now = 1_000_000;
    const urls: string[] = [];
    const store = new EmbeddedStore({
      targets: ['http://collector:9466/metrics'],
      scrapeIntervalMs: 10_000,
      now: () => now,
      fetch: (async (url: string) => {
        urls.push(String(url));
        const withErrors = String(url).includes(encodeURIComponent(SYMBOL));
        // The collector answers what it is asked: the symbol errors grow 50/s.
        const lines = [`${TX}${labels} ${now}`];
        if (withErrors) lines.push(`${SYMBOL}${labels} ${((now - 1_000_000) / 1000) * 50}`);
        return new Response(`${lines.join('\n')}\n`);
      }) as typeof fetch,
    });
    const errorsAsked: boolean[] = [];
    const symbolRates: (number | undefined)[] = [];
    for (let i = 0; i < 5; i++) {
      await store.scrapeOnce();
      errorsAsked.push(urls[i]?.includes(encodeURIComponent(SYMBOL)) ?? false);
      symbolRates.push((await store.rates()).ports.get(portKey(GUID, 1))?.errors?.symbolErrors);
      now += 10_000;
    }
    expect(errorsAsked).toEqual([true, false, false, true, false]);
    // Unknown until two error readings, then 50/s over the 30 s between them, between them too.
    expect(symbolRates).toEqual([undefined, undefined, undefined, 50, 50]);
  });

  it('a port’s error rates are made once per error reading, not per tick: the same object until the next one', async () => {
    let now = 1_000_000;
    let perSecond = 50;
    let symbols = 0;
    const store = new EmbeddedStore({
      targets: ['http://collector:9466/metrics'],
      scrapeIntervalMs: 10_000,
      now: () => now,
      fetch: (async (url: string) => {
        const lines = [`${TX}${labels} ${now}`];
        if (String(url).includes(encodeURIComponent(SYMBOL))) lines.push(`${SYMBOL}${labels} ${symbols}`);
        return new Response(`${lines.join('\n')}\n`);
      }) as typeof fetch,
    });
    const errorsNow = async () => (await store.rates()).ports.get(portKey(GUID, 1))?.errors;
    const seen: (object | undefined)[] = [];
    for (let i = 0; i < 7; i++) {
      await store.scrapeOnce();
      seen.push(await errorsNow());
      now += 10_000;
      symbols += perSecond * 10;
      if (i === 3) perSecond = 20;
    }
    // Error readings at scrapes 0, 3 and 6: rates from 3 on, one object per reading.
    expect(seen.map((e) => (e as { symbolErrors?: number } | undefined)?.symbolErrors)).toEqual([
      undefined,
      undefined,
      undefined,
      50,
      50,
      50,
      (50 * 10 + 20 * 20) / 30,
    ]);
    expect(seen[4]).toBe(seen[3]);
    expect(seen[5]).toBe(seen[3]);
    expect(seen[6]).not.toBe(seen[3]);
  });

  it('every scrape carries them at a 1 s interval', async () => {
    const { store, urls } = slowStore(10);
    await store.scrapeOnce();
    await store.scrapeOnce();
    expect(urls.every((u) => u.includes(encodeURIComponent(SYMBOL)))).toBe(true);
  });
});

describe('embedded store with counters stamped by their collector', () => {
  it('takes the time the collector read the counters, so a late read moves the time, not the rate', async () => {
    const clock = { now: 1_000_000 };
    const bytesPerSecond = 10e9;
    // Each scrape starts on the second and takes 500 ms; the collector reads its source 0–400 ms late.
    const lateMs = [0, 300, 100, 400, 0, 250];
    let scrape = 0;
    const store = new EmbeddedStore({
      targets: ['http://collector:9466/metrics'],
      scrapeIntervalMs: 1000,
      now: () => clock.now,
      fetch: (async () => {
        const readAtMs = clock.now + (lateMs[scrape++] as number);
        clock.now += 500; // the scrape ends after the read
        const text = page((readAtMs * bytesPerSecond) / 1000).replace(
          /(_total\{[^}]*\} \d+)/,
          `$1 ${readAtMs}`,
        );
        return new Response(text, { status: 200 });
      }) as typeof fetch,
    });
    const rates: (number | null | undefined)[] = [];
    for (let i = 0; i < lateMs.length; i++) {
      await store.scrapeOnce();
      rates.push((await store.rates()).ports.get(portKey(GUID, 1))?.transmitBytesPerSecond);
      clock.now += 500;
    }
    expect(rates.slice(1)).toEqual(rates.slice(1).map(() => bytesPerSecond));
  });
});

describe('embedded store close', () => {
  it('aborts the scrape in flight instead of waiting for it (one streams for seconds at fat-tree-27648)', async () => {
    let aborted = false;
    const store = new EmbeddedStore({
      targets: ['http://collector:9466/metrics'],
      scrapeIntervalMs: 10_000,
      fetch: (async (_url: string, init?: RequestInit) => {
        // A body that streams until the request is aborted.
        const body = new ReadableStream<Uint8Array>({
          start(controller) {
            controller.enqueue(Buffer.from(page(1)));
            init?.signal?.addEventListener('abort', () => {
              aborted = true;
              controller.error(init.signal?.reason);
            });
          },
        });
        return new Response(body, { status: 200 });
      }) as typeof fetch,
    });
    const scrape = store.scrapeOnce();
    await new Promise((resolve) => setTimeout(resolve, 20));
    // Without the abort, close() would wait for a body that never ends (the test times out).
    await store.close();
    await scrape;
    expect(aborted).toBe(true);
  });
});

describe('embedded store start', () => {
  /** A started store on fake timers whose collector counts a byte a millisecond; its scrapes, when and with errors. */
  function startedStore(scrapeIntervalMs: number) {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
    const urls: { atMs: number; errors: boolean }[] = [];
    const startMs = Date.now();
    const store = new EmbeddedStore({
      targets: ['http://collector:9466/metrics'],
      scrapeIntervalMs,
      fetch: (async (url: string) => {
        urls.push({
          atMs: Date.now() - startMs,
          errors: String(url).includes(encodeURIComponent(ERROR_COUNTERS.symbolErrors)),
        });
        return new Response(page(Date.now()));
      }) as typeof fetch,
    });
    store.start();
    return {
      store,
      urls,
      stop: async () => {
        await store.close();
        vi.useRealTimers();
      },
    };
  }

  it('at a 10 s interval takes its second reading a second after the first, both without the error families; they come with the first tick', async () => {
    const { store, urls, stop } = startedStore(10_000);
    try {
      await vi.advanceTimersByTimeAsync(999);
      expect(urls).toEqual([{ atMs: 0, errors: false }]);
      await vi.advanceTimersByTimeAsync(1);
      expect(urls).toEqual([
        { atMs: 0, errors: false },
        { atMs: 1000, errors: false },
      ]);
      // Rates from the two readings, a second apart.
      expect((await store.rates()).ports.get(portKey(GUID, 1))?.transmitBytesPerSecond).toBe(1000);
      await vi.advanceTimersByTimeAsync(9000);
      expect(urls.slice(2)).toEqual([{ atMs: 10_000, errors: true }]);
      await vi.advanceTimersByTimeAsync(10_000);
      expect(urls.slice(3)).toEqual([{ atMs: 20_000, errors: false }]);
    } finally {
      await stop();
    }
  });

  it('at 1 s scrapes every interval from the first, every family each time', async () => {
    const { urls, stop } = startedStore(1000);
    try {
      await vi.advanceTimersByTimeAsync(2000);
      expect(urls).toEqual([0, 1000, 2000].map((atMs) => ({ atMs, errors: true })));
    } finally {
      await stop();
    }
  });
});
