#!/usr/bin/env node
// `npm run bench`: runs every benchmark file (`packages/*/bench/*.bench.ts`, `apps/*/bench/*.bench.ts`)
// in its own Node process, so each one's peak memory is its own, and prints their figures.
// A benchmark prints lines `name: value unit (limit …)`; it exits non-zero when a figure misses
// its limit. Pass file-name fragments to run only some: `npm run bench -- topology`.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const filters = process.argv.slice(2);
const files = [];
for (const group of ['packages', 'apps']) {
  for (const ws of readdirSync(join(root, group))) {
    let names = [];
    try {
      names = readdirSync(join(root, group, ws, 'bench'));
    } catch {
      continue;
    }
    for (const name of names.sort()) {
      const file = join(group, ws, 'bench', name);
      if (name.endsWith('.bench.ts') && (filters.length === 0 || filters.some((f) => file.includes(f)))) {
        files.push(file);
      }
    }
  }
}
if (files.length === 0) {
  console.error('no benchmark matched');
  process.exit(1);
}
let failed = 0;
for (const file of files) {
  console.log(`\n### ${file}`);
  const run = spawnSync(process.execPath, ['--expose-gc', '--import', 'tsx', file], {
    cwd: root,
    stdio: 'inherit',
  });
  if (run.status !== 0) failed++;
}
console.log(`\nbenchmarks: ${files.length - failed} within limits, ${failed} over`);
process.exit(failed === 0 ? 0 : 1);
