import { type Fabric, FabricBuilder, formatGuid } from '@fabscope/topology';
import { LabError } from './net-file.ts';

export interface RailSubnetOptions {
  /** Hosts `node001`…; default 4. */
  hosts?: number;
  /** Adapters per host, `mlx5_0`…, each cabled to the leaf of its rail; default 2. */
  rails?: number;
  /** Spines every leaf is cabled to; default 2. */
  spines?: number;
  /** The managed switches' model in their NodeDescription; default MQM8790 (a 40-port HDR Quantum). */
  model?: string;
}

/** Width × speed of every cable: 4x EDR, the fastest ibsim negotiates that the lab's tests read. */
const RATE_GBPS = 100;
/** Ports of every switch (an MQM8790's 40). */
const LEAF_PORTS = 40;

/**
 * A subnet named as a real site names it: hosts of several adapters on rails of one subnet, each
 * adapter described as rdma-ndd writes it (`node001 mlx5_0`), managed switches as MLNX-OS does
 * (`MF0;leaf01:MQM8790/U1`). Node names are what fabscope names them from those descriptions
 * (`node001/mlx5_0`, `leaf01`), so the lab's ibsim ids and the discovered names agree.
 */
export function railSubnet(options: RailSubnetOptions = {}): Fabric {
  const { hosts = 4, rails = 2, spines = 2, model = 'MQM8790' } = options;
  // A leaf's 40 ports: hosts from port 1 up, spines from port 40 down; spine ports one per rail.
  if (hosts < 1 || rails < 1 || spines < 0 || hosts + spines > LEAF_PORTS || rails > LEAF_PORTS) {
    throw new LabError(
      `railSubnet: ${hosts} hosts and ${spines} spines on ${rails} rails do not fit leaves of ${LEAF_PORTS} ports`,
    );
  }
  const builder = new FabricBuilder('rail-subnet', 'infiniband');
  // Mellanox's OUI, 16 GUIDs apart: ibsim gives an adapter's port 1 its node GUID + 1.
  let guids = 0;
  const nextGuid = () => {
    guids += 1;
    return formatGuid(0x0002c90300001000n + BigInt(guids) * 0x10n);
  };
  const switchOf = (name: string, tier: number) =>
    builder.addNode({
      name,
      type: 'switch',
      guid: nextGuid(),
      portCount: LEAF_PORTS,
      tier,
      description: `MF0;${name}:${model}/U1`,
    });
  const leaves = Array.from({ length: rails }, (_, r) =>
    switchOf(`leaf${String(r + 1).padStart(2, '0')}`, 1),
  );
  const spineNodes = Array.from({ length: spines }, (_, s) =>
    switchOf(`spine${String(s + 1).padStart(2, '0')}`, 2),
  );
  for (let h = 1; h <= hosts; h++) {
    const host = `node${String(h).padStart(3, '0')}`;
    leaves.forEach((leaf, r) => {
      const device = `mlx5_${r}`;
      const name = rails > 1 ? `${host}/${device}` : host;
      builder.addNode({
        name,
        type: 'host',
        guid: nextGuid(),
        portCount: 1,
        description: `${host} ${device}`,
      });
      builder.connect(name, 1, leaf.name, h, RATE_GBPS, 'host', { widthSpeed: '4xEDR' });
    });
  }
  leaves.forEach((leaf, r) => {
    spineNodes.forEach((spine, s) => {
      builder.connect(leaf.name, LEAF_PORTS - s, spine.name, r + 1, RATE_GBPS, 'isl', {
        widthSpeed: '4xEDR',
      });
    });
  });
  return builder.build();
}
