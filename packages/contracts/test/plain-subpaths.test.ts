import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

// Every subpath but the index is a plain module a process may load without TypeBox: it imports
// nothing at run time (a type from another plain module at most, erased when compiled).
const ROOT = join(import.meta.dirname, '..');
const { exports } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  exports: Record<string, string>;
};
const PLAIN = Object.entries(exports).filter(([subpath]) => subpath !== '.');

/** The specifiers a module imports at run time (type-only imports left out). */
function runtimeImports(text: string): string[] {
  const imports = text.matchAll(
    /^\s*(?:import|export)\s+(type\s+)?(?:[^'";]*?\s+from\s+)?['"]([^'"]+)['"]/gm,
  );
  return [...imports].filter((m) => m[1] === undefined).map((m) => m[2] as string);
}

describe('the plain subpaths of @fabscope/contracts', () => {
  it.each(PLAIN)('%s imports nothing at run time', (_, file) => {
    expect(runtimeImports(readFileSync(join(ROOT, file), 'utf8'))).toEqual([]);
  });

  it('would catch a schema import', () => {
    expect(runtimeImports("import { Type } from '@sinclair/typebox';")).toEqual(['@sinclair/typebox']);
    expect(runtimeImports("import type { FabricType } from './names.ts';")).toEqual([]);
  });
});
