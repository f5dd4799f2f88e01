import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const BIN = fileURLToPath(new URL('../bin/fabscope.js', import.meta.url));
const fabscope = (...args: string[]) =>
  spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', timeout: 30_000 });

describe('fabscope help and command dispatch', () => {
  const COMMANDS = [
    'demo',
    'scenarios',
    'emulator',
    'emulate',
    'serve',
    'collect',
    'parse',
    'topology',
    'route',
    'analyze',
  ];

  it('help (and no command) lists every command', () => {
    for (const args of [['help'], [], ['--help']]) {
      const run = fabscope(...args);
      expect(run.status).toBe(0);
      for (const command of COMMANDS)
        expect(run.stdout).toMatch(new RegExp(`^ +(fabscope )?${command}\\b`, 'm'));
    }
  });

  it('an unknown command exits 2 naming it, with the usage', () => {
    const run = fabscope('bogus');
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(/^fabscope: unknown command "bogus"\nusage: fabscope <command>/);
  });

  it("an unknown option exits 2 with the parser's reason, not a stack trace", () => {
    const run = fabscope('demo', '--bogus');
    expect(run.status).toBe(2);
    expect(run.stderr).toBe(
      "fabscope: Unknown option '--bogus'\n(fabscope help lists the commands and their options)\n",
    );
  });

  it('loads a command only when it runs: scenarios lists the built-in fabrics', () => {
    const run = fabscope('scenarios');
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/^fat-tree-1152 +Seed 002/m);
  });
});
