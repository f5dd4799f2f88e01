import { type PortSample, portExpositionChunks } from '@fabscope/collectors';
import type { Fabric } from '@fabscope/topology';
import type { LinkIndex } from '../../src/lib/link-index.ts';

/**
 * The fabric collector's page for `fabric` after `seconds`: every direction has carried `calm` of its capacity, those
 * of `busy` (direction ids) `hot` of it during `hotSeconds` of them (counters only grow, as a port's do).
 */
export function collectorPage(
  fabric: Fabric,
  index: LinkIndex,
  seconds: number,
  busy: ReadonlySet<string>,
  hotSeconds: number,
  { calm = 0.1, hot = 0.98 } = {},
): string {
  const ports = new Map<string, PortSample>();
  const port = (node: string, number: number, remote: { node: string; port: number }) => {
    const key = `${node}/${number}`;
    let p = ports.get(key);
    if (!p) {
      const n = fabric.nodeByName.get(node);
      const r = fabric.nodeByName.get(remote.node);
      if (!n || !r) throw new Error(`no node ${node} or ${remote.node}`);
      p = {
        nodeGuid: n.guid,
        nodeName: node,
        nodeType: n.type as PortSample['nodeType'],
        portNumber: number,
        lid: n.lid,
        rateBytesPerSecond: 12.5e9,
        linkUp: true,
        remote: { nodeGuid: r.guid, nodeName: remote.node, portNumber: remote.port },
        transmitBytes: 1e12,
        receiveBytes: 1e12,
        transmitPackets: 0,
        receivePackets: 0,
        transmitWaitTicks: 0,
      };
      ports.set(key, p);
    }
    return p;
  };
  for (const { fixed } of index.channels) {
    const from = port(fixed.from.node, fixed.from.port, fixed.to);
    const to = port(fixed.to.node, fixed.to.port, fixed.from);
    const carried = busy.has(fixed.id) ? calm * (seconds - hotSeconds) + hot * hotSeconds : calm * seconds;
    from.transmitBytes += fixed.capacityBytesPerSecond * carried;
    to.receiveBytes += fixed.capacityBytesPerSecond * carried;
  }
  const snapshot = { fabric: fabric.name, fabricType: 'omnipath', ports: [...ports.values()] };
  return Buffer.concat([...portExpositionChunks(snapshot)]).toString('utf8');
}
