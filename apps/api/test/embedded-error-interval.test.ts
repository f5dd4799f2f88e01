import { ERROR_COUNTERS } from '@fabscope/contracts';
import type { Fabric } from '@fabscope/topology';
import { describe, expect, it } from 'vitest';
import { errorScrapeIntervalMs } from '../src/config.ts';
import { portKey } from '../src/lib/port-rates.ts';
import { EmbeddedStore } from '../src/store/embedded.ts';

const GUID = '0x0011750000000001';
const TX = 'fabscope_port_data_transmitted_bytes_total';
const MARKED = ERROR_COUNTERS.markFecn;
const labels = `{fabric="f",node_guid="${GUID}",node_type="switch",port="1"}`;
/** A leaf–spine of 12 cables, and a fabric of 20,002 ports. */
const small = { links: new Array(12) as Fabric['links'] };
const big = { links: new Array(10_001) as Fabric['links'] };

/**
 * The ECN-marked rate the store gives after each of `ticks` scrapes at a 4 s tick (a slow SNMP sweep), the egress
 * marking `perSecond(i)` packets a second before scrape i; the collector answers the families it is asked for.
 */
async function markedRates(errorIntervalMs: number | undefined, perSecond: (i: number) => number, ticks = 6) {
  let now = 1_000_000;
  let marked = 0;
  const store = new EmbeddedStore({
    targets: ['http://collector:9466/metrics'],
    scrapeIntervalMs: 4000,
    errorIntervalMs,
    now: () => now,
    fetch: (async (url: string) => {
      const lines = [`${TX}${labels} ${now}`];
      if (String(url).includes(encodeURIComponent(MARKED))) lines.push(`${MARKED}${labels} ${marked}`);
      return new Response(`${lines.join('\n')}\n`);
    }) as typeof fetch,
  });
  const rates: (number | undefined)[] = [];
  for (let i = 0; i < ticks; i++) {
    await store.scrapeOnce();
    rates.push((await store.rates()).ports.get(portKey(GUID, 1))?.errors?.markFecn);
    now += 4000;
    marked += perSecond(i) * 4;
  }
  await store.close();
  return rates;
}

describe('the embedded store’s error families on a small fabric at a slow tick', () => {
  it('asks for them with every scrape on a small fabric, whatever the tick; a big fabric keeps the store’s rule', () => {
    expect(errorScrapeIntervalMs(small)).toBe(0);
    expect(errorScrapeIntervalMs({ links: new Array(10_000) as Fabric['links'] })).toBe(0);
    expect(errorScrapeIntervalMs(big)).toBeUndefined();
  });

  it('rates ECN marks advancing every sweep at every tick from the second, following their changes', async () => {
    const rates = await markedRates(errorScrapeIntervalMs(small), (i) => (i < 3 ? 1000 : 3000));
    expect(rates).toEqual([undefined, 1000, 1000, 1000, 3000, 3000]);
  });

  it('keeps them unknown, never 0, where two readings are missing: a big fabric’s first 30 s', async () => {
    const rates = await markedRates(errorScrapeIntervalMs(big), () => 1000, 9);
    // Error readings at scrapes 0 and 8 (every 30 s at a 4 s tick): unknown until the second one.
    expect(rates).toEqual([...new Array(8).fill(undefined), 1000]);
  });
});
