import { type IbPortLine, normalizeGuid, parsePortsReportLines } from '@fabscope/topology';
import type { PortSample } from '../../fabric/port-sample.ts';

const NODE_TYPE = { CA: 'host', SW: 'switch', RT: 'router' } as const;

/** One port of the subnet as discovery left it: where it is, how to address it, its cable. */
export interface IbPort {
  nodeGuid: string;
  /** NodeDescription, as the subnet reports it (what every tool prints). */
  nodeName: string;
  nodeType: PortSample['nodeType'];
  port: number;
  /** The LID a MAD for this port goes to: a switch's (its port 0's), a CA port's own. */
  lid: number;
  /** Width × speed discovery read (`4x`, `EDR`), when the port was up. */
  width: string | null;
  speed: string | null;
  /** The far end of its cable: the one seen now, or the last one seen if the cable is down now. */
  remote: PortSample['remote'];
  /** Whether discovery saw the cable at its last run (ibnetdiscover shows only live links). */
  cabledNow: boolean;
}

const keyOf = (guid: string, port: number) => `${guid}/${port}`;

/**
 * The subnet's ports across discoveries (`ibnetdiscover -p`). A port once seen cabled keeps its far
 * end when the cable is gone (a link down); a port never seen cabled is left out.
 */
export class IbPortMap {
  private readonly ports = new Map<string, IbPort>();
  discoveredAtMs: number | null = null;
  /** The node GUIDs the last discovery found (ibnetdiscover reaches only what has a live path). */
  foundNodes: ReadonlySet<string> = new Set();

  /** Takes one `ibnetdiscover -p` report; returns the ports whose cable appeared, vanished or moved. */
  update(report: string, nowMs = Date.now()): string[] {
    const lines = parsePortsReportLines(report);
    const seen = new Set<string>();
    const changed: string[] = [];
    const found = new Set<string>();
    for (const line of lines) {
      const port = this.portOf(line);
      found.add(port.nodeGuid);
      const key = keyOf(port.nodeGuid, port.port);
      const old = this.ports.get(key);
      if (!line.remote) {
        // Uncabled now: keep a known port (down), skip one never cabled.
        if (old) {
          old.lid = port.lid;
          old.nodeName = port.nodeName;
        }
        continue;
      }
      seen.add(key);
      if (
        !old?.cabledNow ||
        old.remote?.nodeGuid !== port.remote?.nodeGuid ||
        old.remote?.portNumber !== port.remote?.portNumber
      ) {
        changed.push(key);
      }
      this.ports.set(key, port);
    }
    for (const [key, port] of this.ports) {
      if (port.cabledNow && !seen.has(key)) {
        port.cabledNow = false;
        changed.push(key);
      }
    }
    this.discoveredAtMs = nowMs;
    this.foundNodes = found;
    return changed;
  }

  /** Every port with a cable now or before, switches and CAs, in a stable order. */
  list(): IbPort[] {
    return [...this.ports.values()];
  }

  private portOf(line: IbPortLine): IbPort {
    const { local, remote } = line;
    return {
      nodeGuid: normalizeGuid(local.guid),
      nodeName: local.name || local.guid,
      nodeType: NODE_TYPE[local.type],
      port: local.port,
      lid: local.lid,
      width: line.width,
      speed: line.speed === '???' ? null : line.speed,
      remote: remote
        ? {
            nodeGuid: normalizeGuid(remote.guid),
            nodeName: remote.name || remote.guid,
            portNumber: remote.port,
            nodeType: NODE_TYPE[remote.type],
          }
        : null,
      cabledNow: remote !== null,
    };
  }
}
