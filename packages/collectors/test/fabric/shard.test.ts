import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { FabricSnapshot, FabricSource, PortSample } from '../../src/fabric/port-sample.ts';
import { parseShard, ShardError, shardOfPort, sharedSource } from '../../src/fabric/shard.ts';
import { portExpositionChunks } from '../../src/index.ts';

/** `switches` edge switches, each with `hosts` adapters cabled to it, GUIDs as the emulator writes them. */
function fabric(switches: number, hosts: number): FabricSnapshot {
  const ports: PortSample[] = [];
  const base = {
    lid: 1,
    rateBytesPerSecond: 12.5e9,
    linkUp: true,
    transmitBytes: 1,
    receiveBytes: 1,
    transmitPackets: 1,
    receivePackets: 1,
    transmitWaitTicks: 0,
  };
  for (let s = 0; s < switches; s++) {
    const sw = `0x00117501010${String(s).padStart(5, '0')}`;
    for (let h = 0; h < hosts; h++) {
      const host = `0x0011750100${String(s * hosts + h).padStart(6, '0')}`;
      ports.push({
        ...base,
        nodeGuid: sw,
        nodeName: `edge${s}`,
        nodeType: 'switch',
        portNumber: h + 1,
        remote: { nodeGuid: host, nodeName: `node${s}-${h}`, portNumber: 1 },
      });
      ports.push({
        ...base,
        nodeGuid: host,
        nodeName: `node${s}-${h}`,
        nodeType: 'host',
        portNumber: 1,
        remote: { nodeGuid: sw, nodeName: `edge${s}`, portNumber: h + 1 },
      });
    }
  }
  return { fabric: 'f', fabricType: 'infiniband', ports };
}

const seriesOf = (snapshot: FabricSnapshot, shard?: { index: number; count: number }) =>
  Buffer.concat([...portExpositionChunks(snapshot, new Set(['fabscope_port_link_up']), shard)])
    .toString()
    .split('\n')
    .filter((l) => l.startsWith('fabscope_port_link_up{'));

describe('collector shards', () => {
  it('partition the ports: every series in exactly one shard, hosts with their switch', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 12 }), fc.integer({ min: 1, max: 6 }), (count, switches) => {
        const snapshot = fabric(switches, 3);
        const all = seriesOf(snapshot);
        const shards = Array.from({ length: count }, (_, k) => seriesOf(snapshot, { index: k + 1, count }));
        expect(shards.flat().sort()).toEqual([...all].sort());
        for (const p of snapshot.ports) {
          if (p.nodeType === 'host')
            expect(shardOfPort(p, count)).toBe(
              shardOfPort({ ...p, nodeType: 'switch', nodeGuid: p.remote?.nodeGuid ?? '' }, count),
            );
        }
      }),
    );
  });

  it('keep the far end type from the whole fabric', () => {
    const snapshot = fabric(4, 2);
    for (let k = 1; k <= 4; k++)
      for (const line of seriesOf(snapshot, { index: k, count: 4 }))
        expect(line).toMatch(/remote_node_type="(switch|host)"/);
  });

  it('are written K/N, 1-based; anything else is refused with the reason', () => {
    expect(parseShard('2/4')).toEqual({ index: 2, count: 4 });
    for (const bad of ['0/4', '5/4', '1/0', '1', 'a/b', '1/2/3', '-1/2', '1/2000'])
      expect(() => parseShard(bad), bad).toThrow(ShardError);
  });

  it('share one read of the source between shards scraped together', async () => {
    let reads = 0;
    const source: FabricSource = {
      name: 'emulator',
      read: async () => {
        reads++;
        return fabric(1, 1);
      },
    };
    const shared = sharedSource(source, 500);
    const signal = AbortSignal.timeout(1000);
    await Promise.all([shared.read(signal), shared.read(signal), shared.read(signal)]);
    expect(reads).toBe(1);
  });
});
