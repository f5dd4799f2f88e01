import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

// The import table of docs/architecture.md, enforced: every import of every TypeScript file of
// every workspace is read and checked against what its workspace may import.
const ROOT = resolve(import.meta.dirname, '../../..');
const WORKSPACES = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { workspaces: string[] })
  .workspaces;

interface Rule {
  /** fabscope workspaces a file under src/ may import (by package name). */
  src: readonly string[];
  /** …and its tests and benches besides. */
  tests?: readonly string[];
  /** Type-only imports allowed besides (the web takes its types from the contract). */
  typesOnly?: readonly string[];
  /** Plain modules (exact specifiers) a file under src/ may import besides (no schema, no I/O). */
  plain?: readonly string[];
}

const ALL = WORKSPACES.map((w) => `@fabscope/${w.split('/')[1]}`);
const RULES: Readonly<Record<string, Rule>> = {
  'packages/contracts': { src: [] },
  'packages/topology': { src: ['@fabscope/contracts'], tests: ['@fabscope/test-support'] },
  'packages/test-support': { src: [] },
  'packages/lab': { src: ['@fabscope/topology'] },
  'packages/emulator': {
    src: ['@fabscope/topology', '@fabscope/contracts'],
    tests: ['@fabscope/test-support'],
  },
  'packages/collectors': {
    src: ['@fabscope/topology'],
    tests: ['@fabscope/test-support', '@fabscope/lab'],
    // The wire's plain constants: the emulator's /v1/ports, metric family names, media types.
    plain: ['@fabscope/contracts/ports', '@fabscope/contracts/metrics', '@fabscope/contracts/media-types'],
  },
  'apps/api': {
    src: ['@fabscope/topology', '@fabscope/contracts'],
    tests: ['@fabscope/test-support', '@fabscope/lab', '@fabscope/emulator', '@fabscope/collectors'],
  },
  'apps/web': {
    src: [],
    typesOnly: ['@fabscope/contracts'],
    // The one rate formatter, shared with `fabscope top`; the names the wire uses (traffic patterns,
    // the gauges among a port's errors) and its page sizes.
    plain: [
      '@fabscope/contracts/units',
      '@fabscope/contracts/names',
      '@fabscope/contracts/metrics',
      '@fabscope/contracts/limits',
    ],
    tests: ['@fabscope/contracts'],
  },
  'apps/cli': {
    src: ALL.filter(
      (w) => !['@fabscope/cli', '@fabscope/web', '@fabscope/e2e', '@fabscope/test-support'].includes(w),
    ),
    tests: ALL,
  },
  e2e: { src: [], tests: ['@fabscope/test-support', '@fabscope/lab'] },
};

/** Subpaths a package declares in its package.json `exports` (`@fabscope/api/config`). */
const PUBLIC = new Set(
  WORKSPACES.flatMap((w) => {
    const pkg = JSON.parse(readFileSync(join(ROOT, w, 'package.json'), 'utf8')) as {
      name: string;
      exports?: Record<string, string>;
    };
    return Object.keys(pkg.exports ?? { '.': '' }).map((k) =>
      k === '.' ? pkg.name : `${pkg.name}/${k.slice(2)}`,
    );
  }),
);

function tsFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name.startsWith('.') || name === 'dist') continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...tsFiles(path));
    else if (/\.(ts|tsx|mts)$/.test(name) && !name.endsWith('.d.ts')) out.push(path);
  }
  return out;
}

const IMPORT =
  /(?:^|\n)\s*(import|export)\s+(type\s+)?(?:[^'";]*?\s+from\s+)?['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;

interface Found {
  file: string;
  specifier: string;
  typeOnly: boolean;
}

function importsOf(file: string): Found[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(IMPORT)].map((m) => ({
    file: relative(ROOT, file),
    specifier: (m[3] ?? m[4]) as string,
    typeOnly: m[2] !== undefined,
  }));
}

/** Every import that breaks the table, as `file: specifier (why)`. */
export function violations(): string[] {
  const out: string[] = [];
  for (const workspace of WORKSPACES) {
    const rule = RULES[workspace];
    if (!rule) {
      out.push(`${workspace}: no rule in the import table`);
      continue;
    }
    const root = join(ROOT, workspace);
    for (const file of tsFiles(root)) {
      // The web keeps its tests beside its sources (`*.test.ts` and their fixtures).
      const inSrc = relative(root, file).startsWith('src') && !/(\.test\.tsx?|testFixtures\.ts)$/.test(file);
      const allowed = new Set([...rule.src, ...(inSrc ? [] : (rule.tests ?? []))]);
      for (const found of importsOf(file)) {
        const { specifier } = found;
        if (specifier.startsWith('.')) {
          const target = resolve(dirname(file), specifier);
          if (!target.startsWith(`${root}/`))
            out.push(`${found.file}: ${specifier} (a relative path into another workspace)`);
          continue;
        }
        const m = /^(@fabscope\/[a-z-]+)(\/.*)?$/.exec(specifier);
        if (!m) continue;
        const pkg = m[1] as string;
        if (m[2] && !PUBLIC.has(specifier))
          out.push(`${found.file}: ${specifier} (a deep import: only what ${pkg} exports)`);
        if (pkg === `@fabscope/${workspace.split('/')[1] ?? workspace}`) continue;
        if (allowed.has(pkg)) continue;
        if (found.typeOnly && rule.typesOnly?.includes(pkg)) continue;
        if (rule.plain?.includes(specifier)) continue;
        out.push(`${found.file}: ${specifier} (${workspace}${inSrc ? '/src' : ''} may not import ${pkg})`);
      }
    }
  }
  return out;
}

describe('the import table (docs/architecture.md)', () => {
  it('holds for every import of every workspace', () => {
    expect(violations()).toEqual([]);
  });

  it('would catch a package importing an app, contracts importing a workspace, and a deep import', () => {
    // The checker itself, on imports written the wrong way (a test that cannot fail is a defect).
    const wrong = (text: string) => [...text.matchAll(IMPORT)].map((m) => m[3] ?? m[4]);
    expect(wrong("import { startApi } from '@fabscope/api';")).toEqual(['@fabscope/api']);
    expect(wrong("import type { Fabric } from '@fabscope/topology/src/model.ts';")).toEqual([
      '@fabscope/topology/src/model.ts',
    ]);
    expect(wrong("const m = await import('@fabscope/collectors');")).toEqual(['@fabscope/collectors']);
    expect(PUBLIC.has('@fabscope/topology/src/model.ts')).toBe(false);
    expect(PUBLIC.has('@fabscope/api/config')).toBe(true);
    expect(RULES['packages/contracts']?.src).toEqual([]);
    expect(RULES['packages/topology']?.src).not.toContain('@fabscope/api');
  });
});
