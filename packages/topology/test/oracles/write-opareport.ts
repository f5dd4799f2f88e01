import type { Fabric, FabricLink, FabricNode } from '../../src/index.ts';

const TYPE = { host: 'FI', switch: 'SW', router: 'RT' } as const;
const GROUP = { host: 'FIs', switch: 'Switches', router: 'Routers' } as const;

function xmlText(text: string): string {
  return text
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;');
}

function rateText(gbps: number): string {
  return `${Number.isInteger(gbps) ? gbps : gbps.toFixed(1)}g`;
}

/** The fabric as `opareport -o topology` XML (opa-ff IbaTools/opareport), indented as opareport does. */
export function formatOpareportTopology(fabric: Fabric): string {
  const out: string[] = ['<?xml version="1.0" encoding="utf-8" ?>', '<Report>', '<Nodes>'];
  const desc = (node: FabricNode) => xmlText(node.description ?? node.name);
  for (const type of ['host', 'switch', 'router'] as const) {
    const nodes = fabric.nodes.filter((n) => n.type === type);
    if (nodes.length === 0) continue;
    out.push(`    <${GROUP[type]}>`);
    for (const node of nodes) {
      out.push(
        `        <Node id="${node.guid}">`,
        `            <NodeGUID>${node.guid}</NodeGUID>`,
        `            <NodeType>${TYPE[type]}</NodeType>`,
        `            <NodeDesc>${desc(node)}</NodeDesc>`,
        '        </Node>',
      );
    }
    out.push(`    </${GROUP[type]}>`);
  }
  out.push('</Nodes>', '<LinkSummary>', `    <LinkCount>${fabric.links.length}</LinkCount>`);
  const port = (end: FabricLink['a']) => {
    const node = fabric.nodeByName.get(end.node) as FabricNode;
    const guid = node.ports[end.port]?.guid ?? node.guid;
    out.push(
      `        <Port id="${node.guid}:${end.port}">`,
      `            <NodeGUID>${node.guid}</NodeGUID>`,
      ...(node.type === 'switch' ? [] : [`            <PortGUID>${guid}</PortGUID>`]),
      `            <PortNum>${end.port}</PortNum>`,
      `            <NodeType>${TYPE[node.type]}</NodeType>`,
      `            <NodeDesc>${desc(node)}</NodeDesc>`,
      '        </Port>',
    );
  };
  for (const link of fabric.links) {
    const a = fabric.nodeByName.get(link.a.node) as FabricNode;
    out.push(`    <Link id="${a.guid}:${link.a.port}">`, `        <Rate>${rateText(link.rateGbps)}</Rate>`);
    if (link.mtu !== undefined) out.push(`        <MTU>${link.mtu}</MTU>`);
    out.push('        <Internal>0</Internal>');
    port(link.a);
    port(link.b);
    out.push('    </Link>');
  }
  out.push('</LinkSummary>', '</Report>', '');
  return out.join('\n');
}
