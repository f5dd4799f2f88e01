import { existsSync, readFileSync, rmSync, statSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from './run-cli.ts';

// The CLI runs from an esbuild bundle of its sources (bin/compiled.js), rebuilt when one changes.
// This test builds its own cache directory so that it neither waits for nor disturbs the shared one.
const CLI = fileURLToPath(new URL('..', import.meta.url));
const CACHE = join(CLI, '.compiled', `test-${process.pid}`);
afterAll(() => rmSync(CACHE, { recursive: true, force: true }));

const run = async (args: string[], env: Record<string, string> = {}) => {
  const done = await runCli(args, { env: { FABSCOPE_CLI_CACHE: CACHE, ...env }, timeoutMs: 60_000 });
  expect(done.stderr).toBe('');
  expect(done.code).toBe(0);
  return done;
};
const manifest = () =>
  JSON.parse(readFileSync(join(CACHE, 'manifest.json'), 'utf8')) as {
    dir: string;
    inputs: Record<string, [number, number]>;
  };

describe('the compiled CLI cache', () => {
  it('builds on first use, reuses the build while sources are unchanged and rebuilds after a change', async () => {
    const first = await run(['scenarios']);
    expect(first.stdout).toMatch(/^ar-demo\s/m);
    const built = manifest();
    expect(existsSync(join(CACHE, built.dir, 'main.js'))).toBe(true);
    // Its inputs are the CLI's and the bundled workspaces' sources, not installed packages.
    expect(Object.keys(built.inputs)).toContain('src/main.ts');
    expect(Object.keys(built.inputs)).toContain('../../packages/topology/src/index.ts');
    expect(Object.keys(built.inputs).some((f) => f.includes('node_modules/'))).toBe(false);

    await run(['scenarios']);
    expect(manifest().dir).toBe(built.dir);

    // A saved source (a new mtime, same content) invalidates the build.
    const source = join(CLI, 'src/checkout.ts');
    const { atime, mtime } = statSync(source);
    try {
      utimesSync(source, atime, new Date(mtime.getTime() + 2000));
      const again = await run(['scenarios']);
      expect(again.stdout).toBe(first.stdout);
      expect(manifest().dir).not.toBe(built.dir);
    } finally {
      utimesSync(source, atime, mtime);
    }
  });

  it('runs the sources through tsx when asked, with the same answer', async () => {
    const compiled = await run(['scenarios']);
    const sources = await run(['scenarios'], { FABSCOPE_CLI_SOURCES: '1' });
    expect(sources.stdout).toBe(compiled.stdout);
  });
});
