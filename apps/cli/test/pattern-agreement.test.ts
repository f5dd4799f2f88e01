import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { createEmulator } from '@fabscope/emulator';
import { buildScenario, fatTreeRouting } from '@fabscope/topology';
import { describe, expect, it } from 'vitest';

const BIN = fileURLToPath(new URL('../bin/fabscope.js', import.meta.url));

describe('one traffic-pattern engine', () => {
  it('`fabscope analyze --pattern permutation:7` and the emulator’s permutation seed 7 are the same pairs on fat-tree-1152', async () => {
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [BIN, 'analyze', '--scenario', 'fat-tree-1152', '--pattern', 'permutation:7', '--json'],
      { timeout: 30_000, maxBuffer: 64 << 20 },
    );
    const analysed = (JSON.parse(stdout) as { flows: { from: string; to: string }[] }).flows.map(
      (f) => `${f.from}>${f.to}`,
    );
    const fabric = buildScenario('fat-tree-1152');
    const emulator = createEmulator({ fabric, tables: fatTreeRouting(fabric) });
    const started = emulator.startFlows({ pattern: 'permutation', seed: 7 }).map((f) => `${f.from}>${f.to}`);
    expect(analysed).toHaveLength(1152);
    expect(started).toEqual(analysed);
    // A different seed is a different permutation, so equality above is not vacuous.
    const other = createEmulator({ fabric, tables: fatTreeRouting(fabric) })
      .startFlows({ pattern: 'permutation', seed: 8 })
      .map((f) => `${f.from}>${f.to}`);
    expect(other).not.toEqual(analysed);
  });
});
