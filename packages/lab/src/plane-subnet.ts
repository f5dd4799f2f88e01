import { type Fabric, FabricBuilder, formatGuid } from '@fabscope/topology';
import { ibsimNetFile, LabError } from './net-file.ts';

export interface PlaneSubnetOptions {
  /** Which plane, from 0: its hosts' adapters are `mlx5_<plane>`, its switches `plane<plane+1>-…`. */
  plane: number;
  /** Hosts `node001`…, split over two leaves (the first half on leaf01); default 6. */
  hosts?: number;
  /** The managed switches' model in their NodeDescription; default MQM8790. */
  model?: string;
}

/** Ports of every switch (an MQM8790's 40); spines are cabled to a leaf's highest. */
const SWITCH_PORTS = 40;
/** 4x EDR, the fastest ibsim negotiates that the lab's tests read. */
const RATE_GBPS = 100;

/**
 * One plane of a multi-plane cluster: a subnet of its own (its own ibsim and OpenSM) joining every host by one
 * adapter, `node001 mlx5_<plane>` as rdma-ndd describes it, through two leaves and a spine described as
 * MLNX-OS does (`MF0;plane1-leaf01:MQM8790/U1`). GUIDs differ between planes, as two adapters' do; node ids
 * (ibsim's) are the names fabscope gives within the plane alone (`node001`, `plane1-leaf01`).
 */
export function planeSubnet(options: PlaneSubnetOptions): Fabric {
  const { plane, hosts = 6, model = 'MQM8790' } = options;
  const half = Math.ceil(hosts / 2);
  if (!Number.isInteger(plane) || plane < 0 || plane > 15 || hosts < 2 || half > SWITCH_PORTS - 1) {
    throw new LabError(
      `planeSubnet: plane ${plane} (0..15) of ${hosts} hosts (2..${2 * (SWITCH_PORTS - 1)})`,
    );
  }
  const builder = new FabricBuilder(`plane${plane + 1}`, 'infiniband');
  // Mellanox's OUI; each plane its own block, 16 GUIDs apart (ibsim gives a port its node GUID + 1).
  let guids = 0;
  const nextGuid = () =>
    formatGuid(0x0002c90400000000n + BigInt(plane) * 0x100000n + BigInt(++guids) * 0x10n);
  const switchOf = (role: string, tier: number) => {
    const name = `plane${plane + 1}-${role}`;
    builder.addNode({
      name,
      type: 'switch',
      guid: nextGuid(),
      portCount: SWITCH_PORTS,
      tier,
      description: `MF0;${name}:${model}/U1`,
    });
    return name;
  };
  const leaves = [switchOf('leaf01', 1), switchOf('leaf02', 1)];
  const spine = switchOf('spine01', 2);
  for (let h = 1; h <= hosts; h++) {
    const host = `node${String(h).padStart(3, '0')}`;
    builder.addNode({
      name: host,
      type: 'host',
      guid: nextGuid(),
      portCount: 1,
      description: `${host} mlx5_${plane}`,
    });
    const leaf = h <= half ? 0 : 1;
    builder.connect(host, 1, leaves[leaf] as string, h - leaf * half, RATE_GBPS, 'host', {
      widthSpeed: '4xEDR',
    });
  }
  leaves.forEach((leaf, l) => {
    builder.connect(leaf, SWITCH_PORTS, spine, l + 1, RATE_GBPS, 'isl', { widthSpeed: '4xEDR' });
  });
  return builder.build();
}

/**
 * The plane as an ibsim net file, its NodeDescriptions written, and GUIDs of its own: ibsim numbers every
 * instance's nodes from the same bases unless told (`caguid=`, `switchguid=`; sim_net.c parse_guidbase), and
 * two planes of one site never share an adapter's or a switch's GUID.
 */
export function planeNetFile(options: PlaneSubnetOptions): string {
  const base = 0x0002c90400000000n + BigInt(options.plane) * 0x1000000n;
  return [
    `caguid=0x${base.toString(16)}`,
    `switchguid=0x${(base + 0x800000n).toString(16)}`,
    ibsimNetFile(planeSubnet(options), { descriptions: true }),
  ].join('\n');
}
