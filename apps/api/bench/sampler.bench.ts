import { median } from '@fabscope/test-support';
import { buildScenario } from '@fabscope/topology';
import { compactTick } from '../src/lib/compact-tick.ts';
import { LinkIndex, linkDirectionStates, summarize } from '../src/lib/utilization.ts';
import { type PortRates, portKey, type RatesSnapshot } from '../src/store/types.ts';

// One sampling tick of the API — every link direction's utilization, the summary and the two
// stream encodings — on fabrics of 1152 and 27,648 hosts with every port reporting. This is the
// work the sampler does once per second whatever the number of clients.
const LIMITS_MS: Record<string, number> = { 'fat-tree-1152': 20, 'fat-tree-27648': 1000 };

let over = 0;
for (const scenario of Object.keys(LIMITS_MS)) {
  const fabric = buildScenario(scenario);
  const index = new LinkIndex(fabric);
  const ports = new Map<string, PortRates>();
  let seed = 7;
  const random = () => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed / 2 ** 31;
  };
  for (const node of fabric.nodes) {
    for (const port of node.ports) {
      if (!port || port.link < 0) continue;
      const bytes = random() * 12.375e9;
      ports.set(portKey(node.guid, port.number), {
        transmitBytesPerSecond: bytes,
        receiveBytesPerSecond: bytes,
        transmitPacketsPerSecond: bytes / 8192,
        receivePacketsPerSecond: bytes / 8192,
        transmitWaitTicksPerSecond: random() * 1e9,
        // One 8-byte flit at 100 Gb/s: ticks of up to 1e9/s wait up to 64 % of the time.
        transmitWaitTickSeconds: 6.4e-10,
        linkUp: true,
      });
    }
  }
  const snapshot: RatesSnapshot = { timeMs: Date.now(), ok: true, lastSampleAgeSeconds: 0.5, ports };
  const compute: number[] = [];
  const full: number[] = [];
  const compact: number[] = [];
  let fullBytes = 0;
  let compactBytes = 0;
  for (let i = 0; i < 7; i++) {
    let t = performance.now();
    const links = linkDirectionStates(index, snapshot);
    const summary = summarize(index, links, snapshot.timeMs);
    const tick = {
      time: summary.time,
      health: { status: 'ok' as const, store: 'embedded' as const, lastSampleAgeSeconds: 0.5 },
      summary,
      links,
    };
    compute.push(performance.now() - t);
    t = performance.now();
    fullBytes = JSON.stringify(tick).length;
    full.push(performance.now() - t);
    t = performance.now();
    compactBytes = JSON.stringify(compactTick(tick)).length;
    compact.push(performance.now() - t);
  }
  const tickMs = median(compute) + median(compact);
  const limit = LIMITS_MS[scenario] as number;
  console.log(
    `${scenario} link states + summary (${index.channels.length} directions): ${median(compute).toFixed(2)} ms`,
  );
  console.log(
    `${scenario} full stream message: ${median(full).toFixed(2)} ms, ${(fullBytes / 1e6).toFixed(2)} MB`,
  );
  console.log(
    `${scenario} compact stream message: ${median(compact).toFixed(2)} ms, ${(compactBytes / 1e6).toFixed(2)} MB`,
  );
  console.log(
    `${scenario} sampler tick (states + summary + compact): ${tickMs.toFixed(2)} ms (limit ${limit} ms)`,
  );
  if (tickMs > limit) over++;
}
console.log(`peak RSS: ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MiB`);
process.exit(over === 0 ? 0 : 1);
