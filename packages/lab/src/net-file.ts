import { type Fabric, type FabricLink, type FabricNode, infinibandWidthSpeed } from '@fabscope/topology';

// ibsim's net format (sim_net.c): per node `Switch N "id"` or `Hca N "id"`, then per cabled port
// `[p] "remote"[q] w=… s=… e=…`, the enabled width, speed and extended speed.

/** ibsim's LinkWidthEnabled bits. */
const WIDTH_BITS: Readonly<Record<number, number>> = { 1: 1, 4: 2, 8: 4, 12: 8, 2: 16 };

/** LinkSpeedEnabled (s) and LinkSpeedExtEnabled (e) that make ibsim negotiate one speed; no NDR, whose
 * bit Debian's ibsim 0.10 refuses ("bad extended speed 8"). */
const SPEED_BITS: Readonly<Record<string, { s: number; e: number }>> = {
  SDR: { s: 1, e: 0 },
  DDR: { s: 2, e: 0 },
  QDR: { s: 4, e: 0 },
  FDR: { s: 4, e: 1 },
  EDR: { s: 4, e: 2 },
  HDR: { s: 4, e: 4 },
};

/** ibsim's limits (sim.h: MAXNETSWITCHS, MAXNETNODES, MAXNETPORTS), raised with -S/-N/-P. */
const IBSIM_DEFAULT_LIMITS = { switches: 256, nodes: 2048, ports: 13_312 } as const;

export class LabError extends Error {
  override name = 'LabError';
}

/** A link's width and speed as ibsim sets them: its own (`4xFDR`), else 4x of its rate (Omni-Path 100 Gb/s: 4xEDR). */
function labWidthSpeed(link: FabricLink, fabricType: Fabric['fabricType']): { width: number; speed: string } {
  if ((link.fabricType ?? fabricType) === 'ethernet') {
    throw new LabError(`link ${link.id} is Ethernet: ibsim simulates InfiniBand only`);
  }
  const ws = infinibandWidthSpeed(link);
  if (!ws || !SPEED_BITS[ws.speed] || !WIDTH_BITS[ws.lanes]) {
    throw new LabError(`link ${link.id}: ibsim sets no width and speed that carry ${link.rateGbps} Gb/s`);
  }
  return { width: ws.lanes, speed: ws.speed };
}

function portOptions(widthSpeed: { width: number; speed: string }): string {
  const bits = SPEED_BITS[widthSpeed.speed] as { s: number; e: number };
  return `w=${WIDTH_BITS[widthSpeed.width]} s=${bits.s} e=${bits.e}`;
}

function quoted(name: string): string {
  if (/["\s#@[\]]/.test(name) || name.length === 0 || name.length > 63) {
    throw new LabError(
      `node name "${name}" cannot be an ibsim node id (no spaces, quotes, #, @ or brackets; 1–63 characters)`,
    );
  }
  return `"${name}"`;
}

/** A NodeDescription as ibsim reads one after the node id (sim_net.c parse_node_desc): `# "…"`. */
function describedAs(description: string): string {
  if (/["\n]/.test(description) || description.length === 0 || description.length > 63) {
    throw new LabError(
      `NodeDescription "${description}" cannot be written for ibsim (no quotes; 1–63 characters)`,
    );
  }
  return ` # "${description}"`;
}

export interface NetFileOptions {
  /**
   * Write each node's description as its NodeDescription (`Hca 1 "id" # "node001 mlx5_0"`), as a site's
   * rdma-ndd and switches set theirs; default: ibsim's, the node id.
   */
  descriptions?: boolean;
}

/** The fabric as an ibsim net file, node ids its names; a host first, as ibsim attaches its clients to it. */
export function ibsimNetFile(fabric: Fabric, options: NetFileOptions = {}): string {
  const switches = fabric.nodes.filter((n) => n.type === 'switch');
  const hosts = fabric.nodes.filter((n) => n.type === 'host');
  const router = fabric.nodes.find((n) => n.type === 'router');
  if (router)
    throw new LabError(`node ${router.name} is a router: ibsim simulates switches and adapters only`);
  if (switches.length > IBSIM_DEFAULT_LIMITS.switches) {
    throw new LabError(`${switches.length} switches: ibsim holds ${IBSIM_DEFAULT_LIMITS.switches} at most`);
  }
  const lines: string[] = [`# ${fabric.name}: written by fabscope for ibsim`, ''];
  const record = (node: FabricNode) => {
    const description =
      options.descriptions && node.description !== undefined ? describedAs(node.description) : '';
    lines.push(
      `${node.type === 'switch' ? 'Switch' : 'Hca'}\t${node.portCount} ${quoted(node.name)}${description}`,
    );
    for (let p = 1; p < node.ports.length; p++) {
      const port = node.ports[p];
      if (!port || port.link < 0) continue;
      const link = fabric.links[port.link] as FabricLink;
      const far = link.a.node === node.name && link.a.port === p ? link.b : link.a;
      lines.push(
        `[${p}]\t${quoted(far.node)}[${far.port}]\t${portOptions(labWidthSpeed(link, fabric.fabricType))}`,
      );
    }
    lines.push('');
  };
  const [first, ...rest] = hosts;
  if (first) record(first);
  for (const s of switches) record(s);
  for (const h of rest) record(h);
  return lines.join('\n');
}
