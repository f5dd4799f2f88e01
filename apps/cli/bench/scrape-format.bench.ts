// `npm run bench -- scrape-format`: what one scrape of the fabric collector by the embedded store
// costs at fat-tree-27648 (165,888 ports, a permutation running) in the collector's two forms —
// exposition text (the baseline, measured in the same run) and the Arrow columns the store asks a
// fabscope collector for (docs/metrics.md, "The Arrow form"). Both collectors share each read of
// the emulator, so the two stores see the same counters. Per form: bytes on the wire, and the CPU
// of the whole scrape (the collector writing, the store reading and ingesting: one process here),
// with the error families and without (the store asks for them every 30 s at a 10 s interval).
// Asserts that the two stores' rates are equal and that the Arrow scrape costs at most half the
// text's CPU over the store's mix (one scrape with the error families, two without).
import { isDeepStrictEqual } from 'node:util';
import { EmbeddedStore } from '@fabscope/api';
import {
  createFabricRegistry,
  type FabricSnapshot,
  portSamplesFromEmulatorArrow,
  startMetricsServer,
} from '@fabscope/collectors';
import { createEmulator } from '@fabscope/emulator';
import { median } from '@fabscope/test-support';
import { buildScenario, routingFor } from '@fabscope/topology';

const ROUNDS = 3;
const scenario = process.argv[2] ?? 'fat-tree-27648';
const fabric = buildScenario(scenario);
const routing = routingFor('fattree');
const startMs = Date.now();
const emulator = createEmulator({ fabric, tables: routing(fabric), routing, seed: 1, startTimeMs: startMs });
emulator.startFlows({ pattern: 'permutation', seed: 7 });

// The emulator in virtual time, kept level with the wall clock: a read is of "now".
let current: FabricSnapshot | null = null;
const readNow = () => {
  emulator.advance(Date.now() - emulator.nowMs());
  current = portSamplesFromEmulatorArrow(emulator.portCountersArrow(), Date.now());
};
const source = { name: 'emulator', read: async () => current as FabricSnapshot };
const arrowCollector = await startMetricsServer(createFabricRegistry({ source }).answer);
const textCollector = await startMetricsServer(createFabricRegistry({ source }).scrapeChunks);
// One process does both ends here: a text scrape at this size takes longer than a 10 s interval.
// errorIntervalMs 1: a scrape asked for with errors due has the error families, one without has none.
const options = { scrapeIntervalMs: 10_000, rateWindowMs: 120_000, errorIntervalMs: 1, timeoutMs: 120_000 };
const arrowStore = new EmbeddedStore({ ...options, targets: [arrowCollector.url] });
const textStore = new EmbeddedStore({ ...options, targets: [textCollector.url] });

/** CPU (ms, user + system) of one scrape of `store`, with or without the error families. */
async function scrapeCpuMs(store: EmbeddedStore, errors: boolean): Promise<number> {
  globalThis.gc?.();
  const before = process.cpuUsage();
  await store.scrapeOnce(errors);
  const used = process.cpuUsage(before);
  const error = store.stats().targets[0]?.error;
  if (error) throw new Error(`scrape failed: ${error}`);
  return (used.user + used.system) / 1000;
}

/** Bytes of one answer in the form `accept` gets. */
async function answerBytes(url: string, names: string, accept: string): Promise<number> {
  const response = await fetch(`${url}?${names}`, { headers: { accept } });
  let bytes = 0;
  for await (const chunk of response.body as AsyncIterable<Uint8Array>) bytes += chunk.byteLength;
  return bytes;
}

/** The URL the store asked with the error families, and without: what the bytes are measured for. */
const urls = { errors: '', data: '' };
const cpu = {
  text: { errors: [] as number[], data: [] as number[] },
  arrow: { errors: [] as number[], data: [] as number[] },
};
for (let round = 0; round < ROUNDS + 1; round++) {
  for (const errors of [true, false]) {
    readNow();
    // In turns, so load from elsewhere on the machine weighs on both alike.
    const t = await scrapeCpuMs(textStore, errors);
    const a = await scrapeCpuMs(arrowStore, errors);
    urls[errors ? 'errors' : 'data'] = arrowStore.stats().targets[0]?.url ?? '';
    // The first round fills the stores (slots, label sets, key columns): not counted.
    if (round === 0) continue;
    cpu.text[errors ? 'errors' : 'data'].push(t);
    cpu.arrow[errors ? 'errors' : 'data'].push(a);
  }
}
const [arrowRates, textRates] = await Promise.all([arrowStore.rates(), textStore.rates()]);
let agree = arrowRates.ports.size === textRates.ports.size && arrowRates.ports.size > 0;
for (const [key, port] of arrowRates.ports) {
  if (!agree) break;
  agree = isDeepStrictEqual(port, textRates.ports.get(key));
}

readNow();
const bytesOf = async (url: string) => {
  const names = new URL(url).search.slice(1);
  return {
    text: await answerBytes(textCollector.url, names, 'text/plain'),
    arrow: await answerBytes(arrowCollector.url, names, 'application/vnd.apache.arrow.stream'),
  };
};
const bytes = { errors: await bytesOf(urls.errors), data: await bytesOf(urls.data) };
for (const form of ['text', 'arrow'] as const) {
  const label = form === 'text' ? 'text (baseline)' : 'Arrow';
  console.log(
    `${scenario} scrape ${label}: ${(bytes.errors[form] / 1e6).toFixed(1)} MB with the error families, ` +
      `${(bytes.data[form] / 1e6).toFixed(1)} MB without; CPU ${median(cpu[form].errors).toFixed(0)} ms with them, ` +
      `${median(cpu[form].data).toFixed(0)} ms without (median of ${ROUNDS}, collector and store)`,
  );
}
const ratio =
  (median(cpu.arrow.errors) + 2 * median(cpu.arrow.data)) /
  (median(cpu.text.errors) + 2 * median(cpu.text.data));
console.log(
  `${scenario} scrape Arrow ÷ text, CPU of 30 s at a 10 s interval (one scrape with the error families, two without): ${ratio.toFixed(2)} (limit 0.5); rates agree: ${agree} (${arrowRates.ports.size} ports)`,
);
console.log(`${scenario} scrape RSS after both: ${(process.memoryUsage().rss / 2 ** 20).toFixed(0)} MiB`);
await Promise.all([arrowStore.close(), textStore.close()]);
await Promise.all([arrowCollector.close(), textCollector.close()]);
process.exit(agree && ratio <= 0.5 ? 0 : 1);
