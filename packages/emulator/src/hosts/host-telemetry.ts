import type { HostLoad } from '@fabscope/contracts';
import type { Fabric, FabricNode } from '@fabscope/topology';
import type { ChannelLoad } from '../channel-load.ts';
import type { HostPortTelemetry, HostTelemetry } from '../emulator-types.ts';
import type { LosslessCounters } from '../lossless-counters.ts';
import { COUNTER_COUNT, type PortCounterBank } from '../port-counters.ts';
import type { PathFinder } from '../routing/paths.ts';
import { CPU_COUNT, MEMORY_USED_FRACTION } from './host-load.ts';

/** Boot time and CPU time of every host and router, as their kernels count them. */
export class NodeClocks {
  readonly bootTimeMs: Float64Array;
  /** CPU-seconds spent busy (all CPUs) since boot. */
  readonly cpuBusySeconds: Float64Array;

  constructor(nodeCount: number, startTimeMs: number) {
    this.bootTimeMs = new Float64Array(nodeCount).fill(startTimeMs);
    this.cpuBusySeconds = new Float64Array(nodeCount);
  }

  /** `seconds` pass at the current busy shares. */
  accrue(nodeBusy: Float64Array, seconds: number): void {
    for (let n = 0; n < nodeBusy.length; n++) {
      const busy = nodeBusy[n] as number;
      if (busy > 0) this.cpuBusySeconds[n] = (this.cpuBusySeconds[n] as number) + busy * CPU_COUNT * seconds;
    }
  }

  reboot(node: number, nowMs: number): void {
    this.bootTimeMs[node] = nowMs;
    this.cpuBusySeconds[node] = 0;
  }
}

/** What the telemetry of hosts and routers is read from. */
export interface TelemetrySources {
  fabric: Fabric;
  finder: PathFinder;
  load: ChannelLoad;
  ports: PortCounterBank;
  lossless: LosslessCounters;
  clocks: NodeClocks;
  linkUp: Uint8Array;
}

function endpoints(fabric: Fabric): FabricNode[] {
  return fabric.nodes.filter((n) => n.type !== 'switch');
}

/** Live load of every host and router (`GET /v1/hosts`). */
export function hostLoads({ fabric, finder, load }: TelemetrySources): HostLoad[] {
  return endpoints(fabric).map((node) => {
    let tx = 0;
    let rx = 0;
    for (const c of finder.outputs(node.index)) {
      tx += load.payload[c] as number;
      rx += load.payload[c ^ 1] as number;
    }
    return {
      name: node.name,
      type: node.type as 'host' | 'router',
      cpuUtilization: load.nodeBusy[node.index] as number,
      memoryUtilization: MEMORY_USED_FRACTION,
      forwardedBytesPerSecond: load.nodeForwarded[node.index] as number,
      transmitBytesPerSecond: tx,
      receiveBytesPerSecond: rx,
    };
  });
}

/** Every host's and router's ports, CPU and memory as its own kernel shows them (sysfs trees). */
export function hostTelemetry({
  fabric,
  finder,
  load,
  ports,
  lossless,
  clocks,
  linkUp,
}: TelemetrySources): HostTelemetry[] {
  return endpoints(fabric).map((node) => {
    const list: HostPortTelemetry[] = [];
    for (const port of node.ports) {
      if (!port || port.link < 0) continue;
      const out = finder.channelAt(node.index, port.number);
      const counters: bigint[] = new Array(COUNTER_COUNT);
      ports.readPort(out, counters);
      const network = fabric.links[port.link]?.fabricType ?? fabric.fabricType;
      list.push({
        portNumber: port.number,
        guid: port.guid,
        lid: port.lid,
        rateGbps: port.rateGbps,
        network,
        linkUp: linkUp[port.link] === 1,
        counters,
        ip: ports.ipCounters(out),
        ...(network === 'ethernet' ? { lossless: lossless.read(out) } : {}),
      });
    }
    return {
      name: node.name,
      type: node.type as 'host' | 'router',
      guid: node.guid,
      description: node.description ?? node.name,
      bootTimeMs: clocks.bootTimeMs[node.index] as number,
      cpuBusySeconds: clocks.cpuBusySeconds[node.index] as number,
      cpuBusyFraction: load.nodeBusy[node.index] as number,
      memoryUsedFraction: MEMORY_USED_FRACTION,
      forwardedBytesPerSecond: load.nodeForwarded[node.index] as number,
      ports: list,
    };
  });
}
