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

  it('reads loss counters, pause time, and the absent congestion counters as unknown', async () => {
    const { fabric, tables } = fabricFromConfig({ scenario: 'opa-ethernet-router' });
    const emulator = createEmulator({ fabric, tables, seed: 1, startTimeMs: 0 });
    emulator.startFlows({ pattern: 'iperf', from: 'eth-node', to: 'opa-node', streams: 16 });
    emulator.injectFault({ type: 'link-width-downgrade', node: 'opa-node', port: 1, lanes: 3 });
    emulator.advance(10_000);
    startSysfsWriter(emulator, dir, { hosts: ['eth-node'], intervalMs: 60_000 }).stop();
    let text = '';
    // `fabscope collect host --once` on the tree, the recorded ethtool outputs beside it.
    await collect(
      [
        'host',
        ...['--sysfs', join(dir, 'eth-node/sys'), '--procfs', join(dir, 'eth-node/proc')],
        ...['--ethtool', join(dir, 'eth-node/ethtool'), '--once'],
      ],
      {
        stdout: (chunk) => {
          text += String(chunk);
        },
      },
    );
    expect(series(text, ROCE_COUNTERS.outOfSequence)).toEqual([
      { labels: '{device="mlx5_0",port="1"}', value: 0 },
    ]);
    const paused = series(text, ROCE_PAUSE_SERIES.durationSeconds);
    expect(paused.map((s) => s.labels)).toEqual([
      '{device="mlx5_0",port="1",netdev="eth0",direction="rx",priority="3"}',
    ]);
    expect(paused[0]?.value).toBeGreaterThan(5);
    expect(paused[0]?.value).toBeLessThanOrEqual(10);
    const unknown = series(text, ROCE_UNKNOWN_SERIES).map((s) => s.labels);
    expect(unknown).toContain(
      '{device="mlx5_0",port="1",counter="hw_counters/np_cnp_sent",reason="absent (ENOENT)"}',
    );
    expect(unknown.every((labels) => /counter="hw_counters\/(np_|rp_|roce_adp)/.test(labels))).toBe(true);
  });
});
