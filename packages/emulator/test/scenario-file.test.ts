import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { emulatorForScenario, parseScenarioFile, runScenario, ScenarioFileError } from '../src/index.ts';

const shipped = (name: string) =>
  parseScenarioFile(readFileSync(new URL(`../../../scenarios/${name}.yaml`, import.meta.url), 'utf8'));

describe('scenario files', () => {
  it('seed 002: static routing ≈12.4 GB/s, then adaptive routing ≈24.7 GB/s', async () => {
    const result = await runScenario(shipped('seed-002-static-then-ar'));
    const [stat, ar] = result.phases;
    expect(stat?.hostTransmitBytesPerSecond).toBeCloseTo(12.375e9, -6);
    expect(ar?.hostTransmitBytesPerSecond).toBeGreaterThanOrEqual(24.5e9);
    expect(ar?.hostTransmitBytesPerSecond).toBeLessThanOrEqual(24.75e9);
  });

  it('seed 000: 98.6 Gb/s into eth-node, 96.9 Gb/s into opa-node, router at ~8 % CPU', async () => {
    const [write, read] = (await runScenario(shipped('seed-000-router-read-write'))).phases;
    const into = (phase: typeof write, host: string) =>
      ((phase?.hosts.find((h) => h.name === host)?.receiveBytesPerSecond as number) * 8) / 1e9;
    expect(into(write, 'eth-node')).toBeCloseTo(98.6, 1);
    expect(into(read, 'opa-node')).toBeCloseTo(96.9, 1);
    expect(write?.hosts.find((h) => h.name === 'router')?.cpuUtilization).toBeCloseTo(0.08, 2);
  });

  it('seed 004: all-to-all keeps every host at line rate at most; deterministic for a seed', async () => {
    const file = shipped('seed-004-all-to-all');
    const a = await runScenario(file);
    expect(await runScenario(file)).toEqual(a);
    const [large, small] = a.phases;
    expect(large?.hostTransmitBytesPerSecond).toBeLessThanOrEqual(32 * 12.5e9);
    expect(large?.hostTransmitBytesPerSecond).toBeCloseTo(32 * 12.375e9, -6);
    expect(small?.hostTransmitBytesPerSecond).toBeLessThan(large?.hostTransmitBytesPerSecond as number);
  });

  it('runs events inside a phase and paces with --speed', async () => {
    const file = parseScenarioFile(`
name: events
fabric: ar-demo
sweepDelay: 500ms
phases:
  - name: one pair, ISL fails at 1 s
    duration: 2s
    traffic: [{ pattern: pairs, pairs: [[nodeA, nodeC]] }]
    events:
      - at: 1s
        faults: [{ type: link-down, link: edge1/4--core2/1 }]
`);
    const t0 = performance.now();
    const [phase] = (await runScenario(file, { speed: 20 })).phases;
    expect(performance.now() - t0).toBeGreaterThanOrEqual(95);
    // 1 s at full rate, 0.5 s lost until the sweep, 0.5 s rerouted: 1.5 s of 2.
    expect(phase?.hostTransmitBytesPerSecond).toBeCloseTo(12.375e9 * 0.75, -6);
  });

  it.each([
    ['name: x\nfabric: nowhere\nphases: [{name: a, duration: 1}]', /fabric must be one of/],
    ['name: x\nfabric: ar-demo\nphases: []', /phases must be a non-empty list/],
    ['name: x\nfabric: ar-demo\nphases: [{name: a, duration: 1, bogus: 1}]', /unknown key "bogus"/],
    ['name: x\nfabric: ar-demo\nphases: [{name: a, duration: 1 parsec}]', /unknown time unit/],
    ['name: [', /not valid YAML/],
  ])('refuses a bad file with a reason (%#)', (text, reason) => {
    expect(() => parseScenarioFile(text)).toThrow(ScenarioFileError);
    expect(() => parseScenarioFile(text)).toThrow(reason);
  });

  it('each traffic item of a scenario is a job: named in the file, or after its pattern', async () => {
    const file = parseScenarioFile(`
name: jobs
fabric: ar-demo
phases:
  - name: two jobs
    duration: 1s
    traffic:
      - { pattern: pairs, pairs: [[nodeA, nodeC], [nodeB, nodeD]], job: cfd }
      - { pattern: iperf, from: nodeD, to: nodeA, streams: 2 }
`);
    const emulator = emulatorForScenario(file);
    await runScenario(file, { emulator });
    // Flows without a duration run on after their phase, so both jobs are still listed.
    expect(emulator.listJobs().map((j) => [j.name, j.flows])).toEqual([
      ['cfd', 2],
      ['iperf-1', 2],
    ]);
  });

  it('names the phase of a bad traffic item', async () => {
    const file = parseScenarioFile(
      'name: x\nfabric: ar-demo\nphases: [{name: go, duration: 1, traffic: [{pattern: incast, to: nodeZ}]}]',
    );
    await expect(runScenario(file)).rejects.toThrow('go: to: unknown node "nodeZ"');
  });
});
