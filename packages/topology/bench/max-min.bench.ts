// `npm run bench -- max-min`: the max-min solver alone on 27,648 flows over a 166k-channel three-tier
// fat tree with randomly picked up-ports (many bottleneck levels), against the baseline of one pass
// over the same paths. Prints `name: value unit (limit …)`; exits non-zero when a figure misses its limit.
import { maxMinFair } from '../src/index.ts';
import { fatTree3Paths } from './fat-tree-3-paths.ts';

const LIMIT_MS = 500;
const CAPACITY = 12.375e9;

const { paths, channelCount } = fatTree3Paths(48, 7);
const capacities = new Float64Array(channelCount).fill(CAPACITY);
const demands = new Float64Array(paths.length).fill(Number.POSITIVE_INFINITY);

let scanMs = Number.POSITIVE_INFINITY;
let solveMs = Number.POSITIVE_INFINITY;
let rates: Float64Array = new Float64Array(0);
for (let run = 0; run < 5; run++) {
  let started = performance.now();
  const load = new Float64Array(channelCount);
  for (const path of paths) for (const c of path) load[c] = (load[c] as number) + 1;
  scanMs = Math.min(scanMs, performance.now() - started);
  started = performance.now();
  rates = maxMinFair({ paths, demands, capacities });
  solveMs = Math.min(solveMs, performance.now() - started);
}
const valid = rates.every((r) => r > 0 && r <= CAPACITY);
const over = solveMs > LIMIT_MS || !valid;
console.log(
  `max-min ${paths.length} flows, ${channelCount} channels (best of 5): ${solveMs.toFixed(1)} ms (limit ${LIMIT_MS} ms)${over ? '  OVER' : ''}`,
);
console.log(
  `one pass over the same paths (baseline): ${scanMs.toFixed(2)} ms; solver / pass: ${(solveMs / scanMs).toFixed(1)}×`,
);
if (!valid) console.log('rates out of (0, capacity]  OVER');
process.exit(over ? 1 : 0);
