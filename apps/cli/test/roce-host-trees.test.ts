import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROCE_COUNTERS, ROCE_PAUSE_SERIES, ROCE_UNKNOWN_SERIES } from '@fabscope/contracts/metrics';
import { createEmulator, startSysfsWriter } from '@fabscope/emulator';
import { afterAll, describe, expect, it } from 'vitest';
import { collect } from '../src/commands/collect.ts';
import { fabricFromConfig } from '../src/commands/topology.ts';

/** `name{a="x",…} value` lines of the exposition whose name is `family`. */
function series(text: string, family: string): { labels: string; value: number }[] {
  return text
    .split('\n')
    .filter((line) => line.startsWith(`${family}{`))
    .map((line) => ({
      labels: line.slice(family.length, line.lastIndexOf(' ')),
      value: Number(line.split(' ').pop()),
    }));
}

// The host agent reads the emulator's trees as it reads a host's: RoCE ports' hw_counters, their netdev and
// the recorded ethtool -S the emulator writes beside sys/.
describe("RoCE counters from the emulator's host trees", () => {
  const dir = mkdtempSync(join(tmpdir(), 'fabscope-roce-e2e-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('reads loss and congestion counters and pause time each way, the absent ones as unknown', async () => {
    const { fabric, tables } = fabricFromConfig({ scenario: 'roce-leafspine' });
    const emulator = createEmulator({ fabric, tables, seed: 1, startTimeMs: 0 });
    emulator.startFlows({ pattern: 'incast', to: 'host33', from: ['host1', 'host2', 'host17', 'host18'] });
    emulator.advance(10_000);
    startSysfsWriter(emulator, dir, { hosts: ['host1'], intervalMs: 60_000 }).stop();
    let text = '';
    // `fabscope collect host --once` on the tree, the recorded ethtool outputs beside it.
    await collect(
      [
        'host',
        ...['--sysfs', join(dir, 'host1/sys'), '--procfs', join(dir, 'host1/proc')],
        ...['--ethtool', join(dir, 'host1/ethtool'), '--once'],
      ],
      {
        stdout: (chunk) => {
          text += String(chunk);
        },
      },
    );
    const labels = '{device="mlx5_0",port="1"}';
    expect(series(text, ROCE_COUNTERS.outOfSequence)).toEqual([{ labels, value: 0 }]);
    // An incast sender: one CNP per 50 µs handled over the 10 s.
    expect(series(text, ROCE_COUNTERS.cnpHandled)).toEqual([{ labels, value: 200_000 }]);
    const paused = series(text, ROCE_PAUSE_SERIES.durationSeconds);
    const port = '{device="mlx5_0",port="1",netdev="eth0"';
    expect(paused.map((s) => s.labels)).toEqual([
      `${port},direction="rx",priority="3"}`,
      `${port},direction="tx",priority="3"}`,
    ]);
    expect(paused[0]?.value).toBeGreaterThan(3);
    expect(paused[0]?.value).toBeLessThanOrEqual(10);
    expect(paused[1]?.value).toBe(0);
    const unknown = series(text, ROCE_UNKNOWN_SERIES).map((s) => s.labels);
    expect(unknown.length).toBeGreaterThan(0);
    expect(unknown.every((l) => /counter="hw_counters\/roce_adp/.test(l))).toBe(true);
  });
});
