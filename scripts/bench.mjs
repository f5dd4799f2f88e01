#!/usr/bin/env node
// `npm run bench`: runs every benchmark file (`packages/*/bench/*.bench.ts`, `apps/*/bench/*.bench.ts`)
// in its own Node process, so each one's peak memory is its own, and prints their figures.
// A benchmark prints lines `name: value unit (limit …)`; it exits non-zero when a figure misses
// its limit. Pass file-name fragments to run only some: `npm run bench -- topology`.
// `--baseline REV` also runs each chosen file on REV (a clean worktree, installed once), right
// before this checkout's run, and prints every figure beside REV's with their ratio: a change is
// judged against the build before it on the same machine in the same minutes. `--repeat N` runs
// both sides N times, alternating, and compares their medians: one run of a side can be 1.5× off.
// A file whose first line is MEASURES_CWD counts the code of its working directory, so on a
// baseline that predates it, this checkout's copy runs there.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const args = process.argv.slice(2);
const baselineAt = args.indexOf('--baseline');
const baselineRev = baselineAt >= 0 ? args[baselineAt + 1] : undefined;
if (baselineAt >= 0 && !baselineRev) {
  console.error('--baseline needs a git revision');
  process.exit(2);
}
const repeatAt = args.indexOf('--repeat');
const repeat = repeatAt >= 0 ? Number(args[repeatAt + 1]) : 1;
if (!Number.isInteger(repeat) || repeat < 1) {
  console.error('--repeat needs a whole number of runs ≥ 1');
  process.exit(2);
}
const optionAt = new Set([
  ...(baselineAt >= 0 ? [baselineAt, baselineAt + 1] : []),
  ...(repeatAt >= 0 ? [repeatAt, repeatAt + 1] : []),
]);
const filters = args.filter((_, i) => !optionAt.has(i));

function benchFiles(dir) {
  const files = [];
  for (const group of ['packages', 'apps']) {
    for (const ws of readdirSync(join(dir, group))) {
      const benchDir = join(dir, group, ws, 'bench');
      if (!existsSync(benchDir)) continue;
      for (const name of readdirSync(benchDir).sort()) {
        const file = join(group, ws, 'bench', name);
        if (name.endsWith('.bench.ts') && (filters.length === 0 || filters.some((f) => file.includes(f))))
          files.push(file);
      }
    }
  }
  return files;
}

const MEASURES_CWD = '// bench: measures the checkout it runs in';

/** The file to run on the baseline: its own, else this checkout's when it measures its cwd. */
function baselineFile(dir, file) {
  if (existsSync(join(dir, file))) return file;
  const first = readFileSync(join(root, file), 'utf8').split('\n', 1)[0];
  return first === MEASURES_CWD ? join(root, file) : undefined;
}

/** Runs one bench file in `dir`, echoing its output; its status and the figures it printed. */
function run(dir, file) {
  const out = spawnSync(process.execPath, ['--expose-gc', '--import', 'tsx', file], {
    cwd: dir,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
    maxBuffer: 64 * 1024 * 1024,
  });
  process.stdout.write(out.stdout ?? '');
  const figures = new Map();
  for (const line of (out.stdout ?? '').split('\n')) {
    const m = /^(.+?): (-?[\d.]+(?:e[+-]?\d+)?) ?([^\s;(,]*)/.exec(line);
    if (m && !figures.has(m[1])) figures.set(m[1], { value: Number(m[2]), unit: m[3] });
  }
  return { ok: out.status === 0, figures };
}

/** A clean worktree of `rev` with its packages installed; removed when this process ends. */
function baselineCheckout(rev) {
  const dir = mkdtempSync(join(tmpdir(), 'fabscope-baseline-'));
  execFileSync('git', ['worktree', 'add', '--detach', dir, rev], { cwd: root, stdio: 'inherit' });
  process.on('exit', () => {
    spawnSync('git', ['worktree', 'remove', '--force', dir], { cwd: root });
    rmSync(dir, { recursive: true, force: true });
  });
  execFileSync('npm', ['ci', '--no-audit', '--no-fund'], { cwd: dir, stdio: 'inherit' });
  return dir;
}

const files = benchFiles(root);
if (files.length === 0) {
  console.error('no benchmark matched');
  process.exit(1);
}
const baseline = baselineRev ? baselineCheckout(baselineRev) : undefined;
/** Per figure, the median of the runs' values (the first run's unit). */
function medians(runs) {
  const out = new Map();
  for (const name of runs[0].keys()) {
    const values = runs
      .map((r) => r.get(name)?.value)
      .filter((v) => v !== undefined)
      .sort((a, b) => a - b);
    out.set(name, { value: values[(values.length - 1) >> 1], unit: runs[0].get(name).unit });
  }
  return out;
}

let failed = 0;
for (const file of files) {
  const beforeRuns = [];
  const nowRuns = [];
  let ok = true;
  for (let k = 0; k < repeat; k++) {
    const before = baseline && baselineFile(baseline, file);
    if (before) {
      console.log(`\n### ${file} at ${baselineRev}`);
      beforeRuns.push(run(baseline, before).figures);
    }
    console.log(`\n### ${file}`);
    const now = run(root, file);
    ok &&= now.ok;
    nowRuns.push(now.figures);
  }
  if (!ok) failed++;
  if (!baseline) continue;
  const before = beforeRuns.length > 0 ? medians(beforeRuns) : new Map();
  const now = { figures: medians(nowRuns) };
  console.log(
    `\n${file}: this checkout against ${baselineRev}${repeat > 1 ? `, medians of ${repeat} runs each` : ''}`,
  );
  for (const [name, { value, unit }] of now.figures) {
    const was = before.get(name);
    const ratio = was && was.value !== 0 ? ` (${(value / was.value).toFixed(2)}×)` : '';
    console.log(`  ${name}: ${value} ${unit} vs ${was ? `${was.value} ${was.unit}` : 'absent'}${ratio}`);
  }
}
console.log(`\nbenchmarks: ${files.length - failed} within limits, ${failed} over`);
process.exit(failed === 0 ? 0 : 1);
