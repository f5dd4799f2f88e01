// bench: measures the checkout it runs in
// `npm run bench -- instructions`: the topology figures at fat-tree-1152 counted in instructions
// (valgrind's callgrind, `node --predictable`), which repeat to a few per cent where wall-clock
// medians on a shared machine move by a quarter. Per call: (I(112 calls) − I(12 calls)) / 100, so the
// setup cancels, V8 has compiled the work before the counted calls, and the tens of millions by which
// two identical runs differ weigh a hundredth on a call. V8 runs with a new space no
// collection fills, so whether a collection lands among the counted calls no longer decides the
// figure; what the calls allocate is printed beside it instead. With `--baseline REV` the same
// work is counted on REV's code (this file runs there with REV as its working directory).
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const FIGURES = [
  'generate',
  'routing fattree',
  'route lookup (1,000)',
  'permutation analysis',
  'sweep tables, one ISL down',
];
const WORK = fileURLToPath(new URL('./instructions-work.ts', import.meta.url));

if (spawnSync('valgrind', ['--version']).status !== 0) {
  console.error('instructions: valgrind is not installed (Debian: apt-get install valgrind)');
  process.exit(1);
}

// 1 GiB of new space holds 112 calls of every figure: no collection runs while the work is counted.
const NEW_SPACE = ['--min-semi-space-size=1024', '--max-semi-space-size=1024'];
// Fixed seeds: V8's hash tables and Math.random are laid out alike in every run.
const SEEDS = ['--hash-seed=1', '--random-seed=1'];
const [FIRST, LAST] = [12, 112];

interface Count {
  instructions: number;
  allocatedBytes: number;
}

/** Instructions and bytes allocated by one run of `calls` calls of the figure's work. */
function count(figure: string, calls: number): Count {
  const run = spawnSync(
    'valgrind',
    [
      '--tool=callgrind',
      '--callgrind-out-file=/dev/null',
      '--smc-check=all',
      process.execPath,
      '--predictable',
      ...SEEDS,
      ...NEW_SPACE,
      '--import',
      'tsx',
      WORK,
      figure,
      String(calls),
    ],
    { encoding: 'utf8', maxBuffer: 16 << 20 },
  );
  const collected = /Collected : (\d+)/.exec(run.stderr ?? '');
  const allocated = /^allocated (\d+)$/m.exec(run.stdout ?? '');
  if (run.status !== 0 || !collected || !allocated) {
    console.error(run.stderr);
    process.exit(1);
  }
  return { instructions: Number(collected[1]), allocatedBytes: Number(allocated[1]) };
}

// tsx's cache written first: a cold first run counts the compile of every source file.
spawnSync(process.execPath, ['--import', 'tsx', WORK, 'generate', '1'], { stdio: 'ignore' });
for (const figure of FIGURES) {
  const [first, last] = [count(figure, FIRST), count(figure, LAST)];
  const perCall = (last.instructions - first.instructions) / (LAST - FIRST);
  const allocatedPerCall = (last.allocatedBytes - first.allocatedBytes) / (LAST - FIRST);
  console.log(`fat-tree-1152 ${figure}: ${(perCall / 1e6).toFixed(1)} M instructions a call (limit none)`);
  console.log(
    `fat-tree-1152 ${figure} allocates: ${(allocatedPerCall / 2 ** 20).toFixed(2)} MiB a call (limit none)`,
  );
}
