// `npm run bench -- emulator`: one emulator tick (rates recomputed: max-min sharing, congestion,
// error rates, node load; then 100 ms of counters) with a permutation on fat-tree-1152 (1152
// flows) and fat-tree-27648 (27,648 flows), a steady tick, an adaptive-routing pass, and peak RSS.
// Prints `name: value unit (limit …)`; exits non-zero when a figure misses its limit.

import { benchReporter, median } from '@fabscope/test-support';
import { buildScenario, type Fabric, routingFor } from '@fabscope/topology';
import { createEmulator } from '../src/index.ts';

const figures = benchReporter();
const { report } = figures;

function bench(fabric: Fabric, runs: number, tickLimitMs: number, adjustLimitMs: number): void {
  const routing = routingFor('fattree');
  const emulator = createEmulator({ fabric, tables: routing(fabric), routing, seed: 1 });
  const started = performance.now();
  const flows = emulator.startFlows({ pattern: 'permutation', seed: 7 });
  const startMs = performance.now() - started;
  const someIsl = fabric.links.find((l) => l.kind === 'isl')?.id as string;
  const ticks: number[] = [];
  const steady: number[] = [];
  for (let i = 0; i < runs; i++) {
    // A change (symbol errors on one ISL) makes the emulator recompute everything, then 100 ms pass.
    let t0 = performance.now();
    emulator.injectFault({ type: 'symbol-errors', link: someIsl, rate: i % 2 });
    emulator.advance(100);
    ticks.push(performance.now() - t0);
    t0 = performance.now();
    emulator.advance(100);
    steady.push(performance.now() - t0);
  }
  const name = fabric.name;
  console.log(`${name}: ${flows.length} flows started in ${startMs.toFixed(0)} ms`);
  report(
    `${name} tick with ${flows.length} flows, rates recomputed (median of ${runs})`,
    median(ticks),
    'ms',
    tickLimitMs,
  );
  report(
    `${name} tick with ${flows.length} flows, steady (median of ${runs})`,
    median(steady),
    'ms',
    tickLimitMs,
  );
  emulator.setAdaptiveRouting({ enabled: true, threshold: 7, arFrequency: 0 });
  const t0 = performance.now();
  emulator.advance(64); // the first adaptive-routing pass, the busiest one
  report(`${name} first adaptive-routing pass and recompute`, performance.now() - t0, 'ms', adjustLimitMs);
}

bench(buildScenario('fat-tree-1152'), 21, 10, 1000);
globalThis.gc?.();
bench(buildScenario('fat-tree-27648'), 5, 1000, 30_000);
report('peak RSS', process.resourceUsage().maxRSS / 1024, 'MiB', 2048, 0);
process.exit(figures.failed === 0 ? 0 : 1);
