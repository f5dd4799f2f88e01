import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The rules `npm run lint` keeps (biome.json: the import table, no file circles, file and function
// sizes), run on a planted tree: a rule that never fires is not a rule.
const ROOT = resolve(import.meta.dirname, '../../..');
const BIOME = join(ROOT, 'node_modules/@biomejs/biome/bin/biome');

interface Diagnostic {
  category: string;
  location: { path: string };
}

let planted: string;

function plant(files: Record<string, string>): void {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(planted, path)), { recursive: true });
    writeFileSync(join(planted, path), text);
  }
}

/** Every diagnostic biome gives on the planted tree, as `path rule`. */
function lint(): string[] {
  let out: string;
  try {
    out = execFileSync(BIOME, ['lint', '--reporter=json', '--max-diagnostics=none', '.'], {
      cwd: planted,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
  } catch (error) {
    out = (error as { stdout: string }).stdout;
  }
  const report = JSON.parse(out) as { diagnostics: Diagnostic[] };
  return [
    ...new Set(report.diagnostics.map((d) => `${d.location.path} ${d.category.replace(/^lint\/\w+\//, '')}`)),
  ].sort();
}

beforeAll(() => {
  planted = mkdtempSync(join(tmpdir(), 'fabscope-lint-'));
  const config = JSON.parse(readFileSync(join(ROOT, 'biome.json'), 'utf8'));
  // The planted tree is no git checkout; everything else is the project's own configuration.
  config.vcs = { enabled: false };
  delete config.$schema;
  writeFileSync(join(planted, 'biome.json'), JSON.stringify(config));
  const longFunction = `export function long(): number {\n  let n = 0;\n${'  n += 1;\n'.repeat(130)}  return n;\n}\n`;
  plant({
    // A circle of two files, one side type-only.
    'packages/topology/src/a.ts': "import { b } from './b.ts';\nexport const a = (): number => b + 1;\n",
    'packages/topology/src/b.ts':
      "import type { a } from './a.ts';\nexport const b = 1;\nexport type A = typeof a;\n",
    // Upward, sideways and outside imports from the pure package.
    'packages/topology/src/up.ts': "import { buildApp } from '@fabscope/api';\nexport { buildApp };\n",
    'packages/topology/src/io.ts': "import { readFileSync } from 'node:fs';\nexport { readFileSync };\n",
    'packages/topology/src/deep.ts': "export { x } from '@fabscope/contracts/src/api.ts';\n",
    'packages/emulator/src/across.ts': "export { x } from '../../collectors/src/index.ts';\n",
    // The web talks HTTP only: no workspace but the contract.
    'apps/web/src/leak.ts': "export { startEmulator } from '@fabscope/emulator';\n",
    // Allowed: what the table says.
    'packages/topology/src/ok.ts':
      "import { PM_CATEGORIES } from '@fabscope/contracts/names';\nimport { b } from './b.ts';\nexport const ok = [PM_CATEGORIES, b];\n",
    'apps/api/src/ok.ts':
      "import Fastify from 'fastify';\nimport { x } from '@fabscope/topology';\nexport { Fastify, x };\n",
    'packages/topology/test/ok.test.ts':
      "import { it } from 'vitest';\nimport { readFileSync } from 'node:fs';\nit('', () => readFileSync);\n",
    // Sizes.
    'packages/topology/src/long.ts': longFunction,
    'packages/topology/src/big.ts': Array.from(
      { length: 420 },
      (_, i) => `export const x${i} = ${i};\n`,
    ).join(''),
  });
}, 60_000);

afterAll(() => rmSync(planted, { recursive: true, force: true }));

describe('npm run lint keeps the shape rules', () => {
  it('fails a planted circle, wrong imports and oversized files; passes what the table allows', () => {
    expect(lint()).toEqual([
      'apps/web/src/leak.ts noRestrictedImports',
      'packages/emulator/src/across.ts noRestrictedImports',
      'packages/topology/src/a.ts noImportCycles',
      'packages/topology/src/b.ts noImportCycles',
      'packages/topology/src/big.ts noExcessiveLinesPerFile',
      'packages/topology/src/deep.ts noRestrictedImports',
      'packages/topology/src/io.ts noRestrictedImports',
      'packages/topology/src/long.ts noExcessiveLinesPerFunction',
      'packages/topology/src/up.ts noRestrictedImports',
    ]);
  }, 60_000);
});
