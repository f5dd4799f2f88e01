// bench: measures the checkout it runs in
// `npm run bench -- instructions`: the topology figures at fat-tree-1152 counted in instructions
// (valgrind's callgrind, `node --predictable`), which repeat to a few per cent where wall-clock
// medians on a shared machine move by a quarter. Per call: (I(24 calls) − I(12 calls)) / 12, so the
// setup cancels and V8 has compiled the work before the counted calls (counted from 2 calls, V8's
// compiles swung a figure fivefold). With `--baseline REV` the same work is counted on REV's code
// (this file runs there with REV as its working directory).
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

/** Instructions of one run of `calls` calls of the figure's work, from callgrind's summary. */
function instructions(figure: string, calls: number): number {
  const run = spawnSync(
    'valgrind',
    [
      '--tool=callgrind',
      '--callgrind-out-file=/dev/null',
      '--smc-check=all',
      process.execPath,
      '--predictable',
      '--import',
      'tsx',
      WORK,
      figure,
      String(calls),
    ],
    { encoding: 'utf8', maxBuffer: 16 << 20 },
  );
  const collected = /Collected : (\d+)/.exec(run.stderr ?? '');
  if (run.status !== 0 || !collected) {
    console.error(run.stderr);
    process.exit(1);
  }
  return Number(collected[1]);
}

// tsx's cache written first: a cold first run counts the compile of every source file.
spawnSync(process.execPath, ['--import', 'tsx', WORK, 'generate', '1'], { stdio: 'ignore' });
for (const figure of FIGURES) {
  const perCall = (instructions(figure, 24) - instructions(figure, 12)) / 12;
  console.log(`fat-tree-1152 ${figure}: ${(perCall / 1e6).toFixed(1)} M instructions a call (limit none)`);
}
