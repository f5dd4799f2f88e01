// `npm run bench -- startup`: how long `fabscope help` and `fabscope topology parse FILE` take from
// process start to exit, against two baselines measured in the same run: `node -e 0` (Node itself)
// and Node with the tsx loader registered and nothing else (what running TypeScript sources costs
// before any fabscope module loads). Runs are interleaved and the best of each is kept, so load from
// other processes on the machine inflates all four alike. Prints ms and ratios; exits non-zero when
// a command takes over its limit.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const LIMIT_MS = 300;
const RUNS = 9;
const BIN = fileURLToPath(new URL('../bin/fabscope.js', import.meta.url));
const TOPOLOGY = fileURLToPath(
  new URL('../../../packages/topology/test/fixtures/quirks.topo', import.meta.url),
);

interface Case {
  name: string;
  args: string[];
  limitMs?: number;
}

const CASES: Case[] = [
  { name: 'node -e 0', args: ['-e', '0'] },
  {
    name: 'node + tsx loader (baseline)',
    args: ['--input-type=module', '-e', "import { register } from 'tsx/esm/api'; register();"],
  },
  { name: 'fabscope help', args: [BIN, 'help'], limitMs: LIMIT_MS },
  { name: 'fabscope topology parse FILE', args: [BIN, 'topology', 'parse', TOPOLOGY], limitMs: LIMIT_MS },
];

function timeOnce(args: string[]): number {
  const started = performance.now();
  const run = spawnSync(process.execPath, args, { stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8' });
  const ms = performance.now() - started;
  if (run.status !== 0) throw new Error(`node ${args.join(' ')} exited ${run.status}: ${run.stderr}`);
  return ms;
}

// One untimed round warms the tsx transform cache and the file system cache.
for (const c of CASES) timeOnce(c.args);
const best = new Map(CASES.map((c) => [c.name, Number.POSITIVE_INFINITY]));
for (let i = 0; i < RUNS; i++) {
  for (const c of CASES) best.set(c.name, Math.min(best.get(c.name) as number, timeOnce(c.args)));
}

const node = best.get('node -e 0') as number;
const tsx = best.get('node + tsx loader (baseline)') as number;
let over = 0;
for (const c of CASES) {
  const ms = best.get(c.name) as number;
  const late = c.limitMs !== undefined && ms > c.limitMs;
  if (late) over++;
  const limit = c.limitMs === undefined ? 'none' : `${c.limitMs} ms`;
  console.log(
    `${c.name} (best of ${RUNS}): ${ms.toFixed(0)} ms (limit ${limit}); ×${(ms / node).toFixed(1)} node -e 0, ×${(ms / tsx).toFixed(2)} tsx baseline${late ? '  OVER' : ''}`,
  );
}
process.exit(over === 0 ? 0 : 1);
