import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  FABRIC_SOURCES,
  type FabricSourceSettings,
  FabricSourceSettingsError,
  openFabricSource,
} from '../../src/index.ts';

const settings: FabricSourceSettings = {
  ibnetdiscover: 'ibnetdiscover',
  perfquery: 'perfquery',
  reader: 'mad',
  opapmaquery: 'opapmaquery',
  timeoutMs: 5000,
  concurrency: 4,
  ibPortReaderCommand: ['true'],
};

describe('the fabric source registry', () => {
  it('names every source when asked for another, as the CLI prints it', async () => {
    expect(Object.keys(FABRIC_SOURCES)).toEqual(['emulator', 'infiniband', 'omnipath', 'snmp', 'gnmi']);
    await expect(openFabricSource('netflow', settings)).rejects.toThrow(
      new FabricSourceSettingsError(
        '--source must be emulator, infiniband, omnipath, snmp or gnmi, got "netflow"',
      ),
    );
    await expect(openFabricSource(undefined, settings)).rejects.toThrow(/got ""$/);
    await expect(openFabricSource('toString', settings)).rejects.toThrow(/got "toString"$/);
  });

  it('refuses what a source cannot run without, naming the flag', async () => {
    await expect(openFabricSource('emulator', settings)).rejects.toThrow('--source emulator needs --url');
    await expect(openFabricSource('infiniband', { ...settings, reader: 'snmp' })).rejects.toThrow(
      '--reader must be mad or perfquery, got "snmp"',
    );
    await expect(openFabricSource('omnipath', settings)).rejects.toThrow(
      '--source omnipath needs --targets FILE',
    );
    await expect(openFabricSource('snmp', settings)).rejects.toThrow('--source snmp needs --targets FILE');
    await expect(openFabricSource('snmp', { ...settings, targets: '/nonexistent/agents' })).rejects.toThrow(
      new FabricSourceSettingsError(
        "--targets /nonexistent/agents: ENOENT: no such file or directory, open '/nonexistent/agents'",
      ),
    );
  });

  it('opens each source with the read timeout its reads need', async () => {
    const emulator = await openFabricSource('emulator', { ...settings, url: 'http://127.0.0.1:1' });
    expect(emulator.readTimeoutMs).toBe(10_000);
    expect(emulator.source.name).toBe('http://127.0.0.1:1/v1/ports?format=arrow');
    const infiniband = await openFabricSource('infiniband', { ...settings, fabric: 'lab' });
    expect(infiniband.readTimeoutMs).toBe(20_000 + 5000 * 100);
    expect(infiniband.source.name).toBe('infiniband:lab');
    const dir = mkdtempSync(join(tmpdir(), 'fabscope-registry-'));
    try {
      const targets = join(dir, 'targets');
      const line = (lid: number) => `${lid},1,0x0011750101000001,edge1,switch,100`;
      writeFileSync(targets, [1, 2, 3, 4, 5].map(line).join('\n'));
      const omnipath = await openFabricSource('omnipath', { ...settings, targets });
      // Five targets four at a time: two rounds of the per-target timeout, and a second to spare.
      expect(omnipath.readTimeoutMs).toBe(2 * 5000 + 1000);
      const agents = join(dir, 'agents');
      writeFileSync(agents, [1, 2, 3, 4, 5].map((n) => `10.0.0.${n} v2c public`).join('\n'));
      const snmp = await openFabricSource('snmp', { ...settings, targets: agents, fabric: 'dc1' });
      // Five agents four at a time: two rounds of a silent agent's timeout and retry, and five seconds to spare.
      expect(snmp.readTimeoutMs).toBe(2 * 2 * 5000 + 5000);
      expect(snmp.source.name).toBe('snmp:dc1');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
