// The series budget (docs/metrics.md, "Series budget"): every family the fabric collector writes,
// counted line by line in its exposition, at a fabric's size, through the emulator source as the
// demo reads it (a permutation running, no faults: a healthy fabric under load).
//   node --expose-gc --import tsx apps/cli/bench/series-budget.bench.ts [fat-tree-27648]
// Per family: samples in one scrape of one collector over the whole fabric (every family, raw
// counters included), and in the demo's fast job over four shards (what Prometheus ingests each
// interval: a direction between two shards is written by both). Sparse families are counted after
// SPARSE_TAIL sweeps, when only what is not idle is left.
import {
  createFabricRegistry,
  EDGE_FAMILIES,
  emulatorSource,
  PORT_FAMILIES,
  SPARSE_TAIL,
  sharedSource,
} from '@fabscope/collectors';
import { createEmulator, startEmulatorServer } from '@fabscope/emulator';
import { buildScenario, routingFor } from '@fabscope/topology';
import { FAST_FAMILIES } from '../src/prometheus/prometheus.ts';

const scenario = process.argv[2] ?? 'fat-tree-27648';
const fabric = buildScenario(scenario);
const routing = routingFor('fattree');
const emulator = createEmulator({
  fabric,
  tables: routing(fabric),
  routing,
  seed: 1,
  startTimeMs: Date.now(),
});
emulator.startFlows({ pattern: 'permutation', seed: 7 });
const server = await startEmulatorServer(emulator, { fromDateNow: true });
const NEWLINE = 0x0a;
const HASH = 0x23;

/** Samples and bytes per family in one scrape's chunks (each chunk holds whole lines). */
function count(chunks: Iterable<string | Uint8Array>, into: Map<string, { samples: number; bytes: number }>) {
  let family = '';
  for (const chunk of chunks) {
    const buffer =
      typeof chunk === 'string'
        ? Buffer.from(chunk)
        : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.length);
    let start = 0;
    while (start < buffer.length) {
      let end = buffer.indexOf(NEWLINE, start);
      if (end < 0) end = buffer.length;
      if (buffer[start] === HASH) {
        const line = buffer.toString('latin1', start, Math.min(end, start + 200));
        const m = /^# TYPE (\S+) /.exec(line);
        if (m) family = m[1] as string;
      } else if (end > start) {
        const entry = into.get(family) ?? { samples: 0, bytes: 0 };
        entry.samples++;
        entry.bytes += end - start + 1;
        into.set(family, entry);
      }
      start = end + 1;
    }
  }
}

const ports = fabric.links.length * 2;
console.log(`${scenario}: ${fabric.nodes.length} nodes, ${ports} cabled ports = link directions`);

// One collector, every family (raw counters on), after enough sweeps for the sparse tails to end.
const whole = new Map<string, { samples: number; bytes: number }>();
{
  const registry = createFabricRegistry({ source: emulatorSource(server.url), rawCounters: true });
  for (let i = 0; i < SPARSE_TAIL + 2; i++) {
    const started = performance.now();
    const chunks = await registry.scrapeChunks();
    const last = i === SPARSE_TAIL + 1;
    if (last) count(chunks, whole);
    else for (const _ of chunks);
    console.log(`  sweep ${i + 1}: ${((performance.now() - started) / 1000).toFixed(1)} s`);
    (globalThis as { gc?: () => void }).gc?.();
  }
}

// Four shards, the fast job's families, as the demo's Prometheus scrapes them.
const sharded = new Map<string, { samples: number; bytes: number }>();
{
  const source = sharedSource(emulatorSource(server.url), 5000);
  const shards = [1, 2, 3, 4].map((index) =>
    createFabricRegistry({ source, shard: { index, count: 4 }, rawCounters: false }),
  );
  const names = new Set<string>(FAST_FAMILIES);
  for (let i = 0; i < SPARSE_TAIL + 2; i++) {
    const last = i === SPARSE_TAIL + 1;
    for (const shard of shards) {
      const chunks = await shard.scrapeChunks({ names });
      if (last) count(chunks, sharded);
      else for (const _ of chunks);
    }
    // A new read for the next sweep.
    await new Promise((resolve) => setTimeout(resolve, 5100));
  }
}
await server.close();

const edge = new Set(EDGE_FAMILIES.map((f) => f.name));
const raw = new Set(PORT_FAMILIES.filter((f) => f.raw).map((f) => f.name));
const fast = new Set<string>(FAST_FAMILIES);
const rows = [...new Set([...whole.keys(), ...sharded.keys()])].sort((a, b) => {
  const rank = (n: string) => (edge.has(n) ? 0 : raw.has(n) ? 2 : 1);
  return rank(a) - rank(b) || a.localeCompare(b);
});
console.log(
  '| family | set | in the fast job | samples, one collector | samples, 4 shards (fast job) | bytes, one collector |',
);
console.log('|---|---|---|---|---|---|');
let totals = { whole: 0, fast: 0, edge: 0, raw: 0, bytes: 0, fastBytes: 0 };
for (const name of rows) {
  const w = whole.get(name) ?? { samples: 0, bytes: 0 };
  const s = sharded.get(name) ?? { samples: 0, bytes: 0 };
  const set = edge.has(name) ? 'edge' : raw.has(name) ? 'raw' : 'always';
  console.log(
    `| ${name} | ${set} | ${fast.has(name) ? 'yes' : 'no'} | ${w.samples.toLocaleString('en')} | ${s.samples.toLocaleString('en')} | ${(w.bytes / 1e6).toFixed(1)} MB |`,
  );
  totals = {
    whole: totals.whole + w.samples,
    fast: totals.fast + s.samples,
    edge: totals.edge + (edge.has(name) ? w.samples : 0),
    raw: totals.raw + (raw.has(name) ? w.samples : 0),
    bytes: totals.bytes + w.bytes,
    fastBytes: totals.fastBytes + s.bytes,
  };
}
console.log(
  `total: one collector ${totals.whole.toLocaleString('en')} samples (${(totals.bytes / 1e6).toFixed(0)} MB; edge ${totals.edge.toLocaleString('en')}, raw ${totals.raw.toLocaleString('en')}); ` +
    `the fast job over 4 shards ${totals.fast.toLocaleString('en')} samples (${(totals.fastBytes / 1e6).toFixed(0)} MB)`,
);
process.exit(0);
