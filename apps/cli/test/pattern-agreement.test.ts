import { createEmulator } from '@fabscope/emulator';
import { buildScenario, fatTreeRouting } from '@fabscope/topology';
import { describe, expect, it } from 'vitest';
import { runCli } from './run-cli.ts';

describe('one traffic-pattern engine', () => {
  it('`fabscope analyze --pattern permutation:7` and the emulator’s permutation seed 7 are the same pairs on fat-tree-1152', async () => {
    const { code, stdout, stderr } = await runCli([
      'analyze',
      '--scenario',
      'fat-tree-1152',
      '--pattern',
      'permutation:7',
      '--json',
    ]);
    expect(stderr).toBe('');
    expect(code).toBe(0);
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
