import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localIbPorts } from '../../../src/sources/infiniband/ib-local-ports.ts';
import { infinibandSource } from '../../../src/sources/infiniband/infiniband-source.ts';

/** A /sys/class/infiniband tree in the kernel's formats (`4: ACTIVE`, `5: LinkUp`, `InfiniBand`). */
function writePort(root: string, ca: string, port: number, files: Record<string, string>): void {
  const dir = join(root, ca, 'ports', String(port));
  mkdirSync(dir, { recursive: true });
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), `${text}\n`);
}

describe('the local InfiniBand ports whose link is up, from sysfs', () => {
  let root = '';
  beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), 'fabscope-sysfs-'));
    const ib = { link_layer: 'InfiniBand' };
    writePort(root, 'mlx5_1', 1, { ...ib, state: '4: ACTIVE', phys_state: '5: LinkUp' });
    writePort(root, 'mlx5_0', 1, { ...ib, state: '4: ACTIVE', phys_state: '5: LinkUp' });
    // Cabled, no subnet manager yet: the link is up, its subnet is watched (the SM's absence is reported).
    writePort(root, 'mlx4_0', 2, { ...ib, state: '2: INIT', phys_state: '5: LinkUp' });
    writePort(root, 'mlx4_0', 1, { ...ib, state: '1: DOWN', phys_state: '3: Disabled' });
    // RoCE: an Ethernet port is no subnet.
    writePort(root, 'mlx5_2', 1, { link_layer: 'Ethernet', state: '4: ACTIVE', phys_state: '5: LinkUp' });
    writePort(root, 'hfi1_0', 1, { ...ib, state: '1: DOWN', phys_state: '2: Polling' });
    mkdirSync(join(root, 'mlx5_3', 'ports'), { recursive: true });
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('lists them in adapter and port order, leaving out ports down and Ethernet ones', () => {
    expect(localIbPorts(root)).toEqual([
      { ca: 'mlx4_0', port: 2 },
      { ca: 'mlx5_0', port: 1 },
      { ca: 'mlx5_1', port: 1 },
    ]);
  });

  it('finds none where the kernel lists no adapter', () => {
    expect(localIbPorts(join(root, 'absent'))).toEqual([]);
  });
});

describe('a source reading the subnet of one local port', () => {
  it('discovers through that port and tells the MAD reader to open it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'fabscope-port-'));
    try {
      // Stand-ins that write down how they were run: ibnetdiscover answers one cable from both ends, the reader exits.
      const ibnetdiscover = join(dir, 'ibnetdiscover');
      writeFileSync(
        ibnetdiscover,
        `#!/bin/sh\necho "$@" > ${dir}/discover-args\necho "CA 3 1 0x0002c90300001011 4x EDR - SW 2 1 0x0002c90300001000 ( 'node001 mlx5_1' - 'MF0;leaf01:MQM8790/U1' )"\necho "SW 2 1 0x0002c90300001000 4x EDR - CA 3 1 0x0002c90300001011 ( 'MF0;leaf01:MQM8790/U1' - 'node001 mlx5_1' )"\n`,
        { mode: 0o755 },
      );
      const reader = join(dir, 'reader');
      writeFileSync(reader, `#!/bin/sh\necho "$FABSCOPE_IB_READER_PORT" > ${dir}/reader-port\n`, {
        mode: 0o755,
      });
      const source = infinibandSource({
        ibnetdiscover,
        localPort: { ca: 'mlx5_1', port: 1 },
        madReader: { command: [reader] },
      });
      await expect(source.read(AbortSignal.timeout(10_000))).rejects.toThrow();
      await source.close();
      expect(readFileSync(join(dir, 'discover-args'), 'utf8').trim()).toBe('-p -C mlx5_1 -P 1');
      expect(readFileSync(join(dir, 'reader-port'), 'utf8').trim()).toBe('mlx5_1:1');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
