import { type IbLocalPort, ibPortArgs, ibPortName } from '@fabscope/contracts/names';
import { type Fabric, FabricBuilder, type NodeNameMap, nameNodes } from '@fabscope/topology';
import type { PortOptics } from '../routes/port/port-optics.ts';

/**
 * One InfiniBand subnet a server watches: the local port it is cabled to (`-C ca -P port`), or, for a simulated
 * subnet, the environment its tools run under (the lab's LD_PRELOAD and IBSIM_SOCKNAME).
 */
export interface IbSubnet {
  /** How the view names it: the local port (`mlx5_1:1`), or the harness's name. */
  name: string;
  /** The port the tools read the subnet through; absent: the tools' default port (under `env`). */
  localPort?: IbLocalPort | undefined;
  /** Added to the tools' environment (a simulated subnet's preload and socket). */
  env?: Readonly<Record<string, string>> | undefined;
  /** The tools' working directory (umad2sim writes a simulated sysfs into it). */
  cwd?: string | undefined;
  /** OpenSM's LFT dump of this subnet, when the SM's tables are read from a file (the lab's). */
  lftsPath?: string | undefined;
}

/** Environment and working directory of the fabric tools the API runs, and the subnets it watches. */
export interface FabricTools {
  env?: NodeJS.ProcessEnv | undefined;
  cwd?: string | undefined;
  /** Several subnets: each discovered, routed and probed apart, under its own port or environment. */
  subnets?: readonly IbSubnet[] | undefined;
  /** How the fabric is discovered again while running, where it is not by ibnetdiscover (LLDP by SNMP). */
  discover?: (() => Promise<Fabric>) | undefined;
  /** The ports' transceiver readings, where the live source reads them (SNMP's ENTITY-SENSOR-MIB). */
  portOptics?: PortOptics | undefined;
}

/** The subnet reached through a local port, named by it. */
export function subnetOfPort(port: IbLocalPort): IbSubnet {
  return { name: ibPortName(port), localPort: port };
}

/** How a tool reaches one subnet: its port arguments, environment and working directory. */
export function subnetTools(
  subnet: IbSubnet,
  tools: FabricTools = {},
): { args: string[]; env: NodeJS.ProcessEnv; cwd: string | undefined } {
  const base = tools.env ?? process.env;
  return {
    args: ibPortArgs(subnet.localPort),
    env: subnet.env ? { ...base, ...subnet.env } : base,
    cwd: subnet.cwd ?? tools.cwd,
  };
}

/**
 * Several subnets as one fabric, each node marked with its subnet (LIDs are unique within one only) and named
 * anew over all of them: a host with an adapter on each subnet is one host of several rails (`node001/mlx5_0`,
 * `node001/mlx5_1`), as if its rails shared a subnet. Cables never join subnets: each is a network of its own.
 */
export function mergeSubnets(
  parts: readonly { subnet: string; fabric: Fabric }[],
  name: string,
  nodeNames?: NodeNameMap,
): Fabric {
  const nodes = parts.flatMap((p, k) => p.fabric.nodes.map((node) => ({ k, subnet: p.subnet, node })));
  checkDistinctPorts(nodes);
  const names = nameNodes(
    nodes.map(({ node }) => {
      const ports = node.ports.filter((p) => p !== undefined);
      return {
        type: node.type,
        guid: node.guid,
        description: node.description,
        portGuids: ports.flatMap((p) => (p.guid !== node.guid ? [p.guid] : [])),
        fallback: node.name,
        // An adapter whose ports are listed apart (one per subnet) is named `host/device:port`.
        ...(node.type !== 'switch' && ports.length === 1 ? { port: ports[0]?.number } : {}),
      };
    }),
    nodeNames,
  );
  const builder = new FabricBuilder(name, 'infiniband');
  const renamed = parts.map(() => new Map<string, string>());
  nodes.forEach(({ k, subnet, node }, i) => {
    const newName = (names[i] as { name: string }).name;
    renamed[k]?.set(node.name, newName);
    const portLids: Record<number, number> = {};
    const portGuids: Record<number, string> = {};
    for (const p of node.ports) {
      if (p && p.lid !== node.lid && p.lid > 0) portLids[p.number] = p.lid;
      if (p && p.guid !== node.guid) portGuids[p.number] = p.guid;
    }
    builder.addNode({
      name: newName,
      type: node.type,
      guid: node.guid,
      portCount: node.portCount,
      tier: node.tier,
      lid: node.lid,
      subnet,
      ...(node.description !== undefined ? { description: node.description } : {}),
      ...(node.lmc ? { lmc: node.lmc } : {}),
      ...(Object.keys(portLids).length > 0 ? { portLids } : {}),
      ...(Object.keys(portGuids).length > 0 ? { portGuids } : {}),
    });
  });
  parts.forEach((part, k) => {
    const nameOf = (n: string) => renamed[k]?.get(n) ?? n;
    for (const link of part.fabric.links) {
      builder.connect(
        nameOf(link.a.node),
        link.a.port,
        nameOf(link.b.node),
        link.b.port,
        link.rateGbps,
        link.kind,
        {
          ...(link.fabricType !== undefined ? { fabricType: link.fabricType } : {}),
          ...(link.widthSpeed !== undefined ? { widthSpeed: link.widthSpeed } : {}),
          ...(link.lengthM !== undefined ? { lengthM: link.lengthM } : {}),
          ...(link.mtu !== undefined ? { mtu: link.mtu } : {}),
        },
      );
    }
    for (const node of part.fabric.nodes) {
      for (const p of node.ports)
        if (p && p.link < 0) builder.addUncabledPort(nameOf(node.name), p.number, p.rateGbps);
    }
  });
  return builder.build();
}

/**
 * Counters are kept by node GUID and port: a port seen on two subnets (the same GUID twice, as two copies of one
 * simulated subnet would give) would mix their figures, so it is an error naming both.
 */
function checkDistinctPorts(nodes: readonly { subnet: string; node: Fabric['nodes'][number] }[]): void {
  const seen = new Map<string, string>();
  for (const { subnet, node } of nodes) {
    for (const port of node.ports) {
      if (!port) continue;
      const key = `${node.guid}/${port.number}`;
      const other = seen.get(key);
      if (other !== undefined && other !== subnet) {
        throw new Error(
          `port ${node.guid}/${port.number} ("${node.description ?? node.name}") is on subnets ${other} and ${subnet}: the same port cannot be cabled to two subnets`,
        );
      }
      seen.set(key, subnet);
    }
  }
}
