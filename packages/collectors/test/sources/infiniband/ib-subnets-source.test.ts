import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { FabricSnapshot, FabricSource, PortSample } from '../../../src/fabric/port-sample.ts';
import { type FabricSourceSettings, openFabricSource } from '../../../src/index.ts';
import { subnetsSource } from '../../../src/sources/infiniband/ib-subnets-source.ts';

const port = (guid: string): PortSample =>
  ({ nodeGuid: guid, portNumber: 1, nodeName: guid, nodeType: 'host', lid: 1 }) as PortSample;

function fixed(snapshot: Partial<FabricSnapshot> | Error): FabricSource {
  return {
    name: 'fixed',
    read: async () => {
      if (snapshot instanceof Error) throw snapshot;
      return { fabric: 'x', fabricType: 'infiniband', ports: [], ...snapshot };
    },
  };
}

describe('several subnets read as one source (collect fabric on several ports)', () => {
  it('puts the ports side by side under the mean of the sweeps’ stamps, MADs summed', async () => {
    const both = subnetsSource('site', [
      {
        name: 'mlx5_0:1',
        source: fixed({
          ports: [port('0xa')],
          countersReadAtMs: 1000,
          targets: [{ target: '0xa', durationSeconds: 0.1, outcome: 'ok' }],
          mads: { sent: 10, retries: 1, failedPorts: 0 },
        }),
      },
      {
        name: 'mlx5_1:1',
        source: fixed({
          ports: [port('0xb')],
          countersReadAtMs: 1004,
          mads: { sent: 5, retries: 0, failedPorts: 2 },
        }),
      },
    ]);
    const read = await both.read(AbortSignal.timeout(1000));
    expect(read.ports.map((p) => p.nodeGuid)).toEqual(['0xa', '0xb']);
    expect(read.countersReadAtMs).toBe(1002);
    expect(read.mads).toEqual({ sent: 15, retries: 1, failedPorts: 2 });
    expect(read.fabric).toBe('site');
  });

  it('a subnet that failed is a failed target, its ports absent; all failing fails the read', async () => {
    const one = subnetsSource('site', [
      { name: 'mlx5_0:1', source: fixed({ ports: [port('0xa')], countersReadAtMs: 1000 }) },
      { name: 'mlx5_1:1', source: fixed(new Error('ibnetdiscover: port down')) },
    ]);
    const read = await one.read(AbortSignal.timeout(1000));
    expect(read.ports).toHaveLength(1);
    expect(read.targets).toEqual([expect.objectContaining({ target: 'subnet mlx5_1:1', outcome: 'error' })]);
    const none = subnetsSource('site', [{ name: 'mlx5_1:1', source: fixed(new Error('port down')) }]);
    await expect(none.read(AbortSignal.timeout(1000))).rejects.toThrow('mlx5_1:1: port down');
  });
});

describe('collect fabric --source infiniband with FABSCOPE_IB_PORTS', () => {
  const settings: FabricSourceSettings = {
    ibnetdiscover: 'ibnetdiscover',
    perfquery: 'perfquery',
    reader: 'mad',
    opapmaquery: 'opapmaquery',
    timeoutMs: 5000,
    concurrency: 4,
    ibPortReaderCommand: ['true'],
  };

  it('discovers every listed port’s subnet through that port', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'fabscope-ports-'));
    try {
      const ibnetdiscover = join(dir, 'ibnetdiscover');
      writeFileSync(ibnetdiscover, `#!/bin/sh\necho "$@" >> ${dir}/args\nexit 1\n`, { mode: 0o755 });
      appendFileSync(join(dir, 'args'), '');
      const opened = await openFabricSource('infiniband', {
        ...settings,
        ibnetdiscover,
        ibPorts: [
          { ca: 'mlx5_0', port: 1 },
          { ca: 'mlx5_1', port: 1 },
        ],
      });
      await expect(opened.source.read(AbortSignal.timeout(5000))).rejects.toThrow(/every subnet/);
      expect(readFileSync(join(dir, 'args'), 'utf8').trim().split('\n').sort()).toEqual([
        '-p -C mlx5_0 -P 1',
        '-p -C mlx5_1 -P 1',
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('reads each listed port’s subnet with perfquery through that port, not the default one', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'fabscope-ports-'));
    try {
      const fixture = fileURLToPath(new URL('../../fixtures/ibnetdiscover/fabric-p.out', import.meta.url));
      const ibnetdiscover = join(dir, 'ibnetdiscover');
      writeFileSync(ibnetdiscover, `#!/bin/sh\ncat '${fixture}'\n`, { mode: 0o755 });
      // perfquery as the tools print nothing for a port they cannot reach: the read fails, the arguments stay.
      // The basic run fails later than the extended one: the read must still wait for it.
      const perfquery = join(dir, 'perfquery');
      writeFileSync(
        perfquery,
        `#!/bin/sh\ncase " $* " in *" -x "*) ;; *) sleep 0.2 ;; esac\necho "$@" >> ${dir}/args\nexit 1\n`,
        { mode: 0o755 },
      );
      appendFileSync(join(dir, 'args'), '');
      const opened = await openFabricSource('infiniband', {
        ...settings,
        reader: 'perfquery',
        ibnetdiscover,
        perfquery,
        ibPorts: [
          { ca: 'mlx5_0', port: 1 },
          { ca: 'mlx5_1', port: 2 },
        ],
      });
      await opened.source.read(AbortSignal.timeout(10_000));
      const runs = readFileSync(join(dir, 'args'), 'utf8').trim().split('\n');
      const through = (ca: string, port: number) => runs.filter((r) => r.startsWith(`-C ${ca} -P ${port} `));
      // Every node of each subnet, extended and basic counters, through that subnet's port only.
      expect(through('mlx5_0', 1).length).toBeGreaterThan(0);
      expect(through('mlx5_0', 1).length).toBe(through('mlx5_1', 2).length);
      expect(runs.length).toBe(2 * through('mlx5_0', 1).length);
      expect(through('mlx5_0', 1)).toContain(`-C mlx5_0 -P 1 -x -l 21 1`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
