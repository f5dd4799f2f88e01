import type { Route } from '../routing/route.ts';
import type { Fabric, FabricNode } from './model.ts';

/** One-way small-message latency; defaults from seed 004 (930 ns host to host on one 48-port switch). */
export interface LatencyModel {
  /** Host adapter and software stack, per end (sender and receiver). */
  endpointNs: number;
  /** Per switch crossed. */
  switchNs: number;
  /** Per router crossed: at least its two adapters; kernel IP forwarding adds more. */
  routerNs: number;
  /** Propagation per metre of cable (≈ 5 ns/m in copper and fibre). */
  cableNsPerMetre: number;
  /** Cable length when a link does not say (FabricLink.lengthM). */
  cableLengthM: number;
}

export const DEFAULT_LATENCY_MODEL: Readonly<LatencyModel> = {
  endpointNs: 400,
  switchNs: 110,
  routerNs: 800,
  cableNsPerMetre: 5,
  cableLengthM: 2,
};

export interface LatencyBreakdown {
  latencyNs: number;
  endpointsNs: number;
  switchesNs: number;
  routersNs: number;
  cablesNs: number;
}

export function routeLatency(
  fabric: Fabric,
  route: Route,
  model: Partial<LatencyModel> = {},
): LatencyBreakdown {
  const m = { ...DEFAULT_LATENCY_MODEL, ...model };
  let switches = 0;
  let routers = 0;
  for (const hop of route.hops.slice(1, -1)) {
    const node = fabric.nodeByName.get(hop.node) as FabricNode;
    if (node.type === 'switch') switches++;
    else routers++;
  }
  let metres = 0;
  for (const c of route.channels) metres += fabric.links[c >> 1]?.lengthM ?? m.cableLengthM;
  const endpointsNs = 2 * m.endpointNs;
  const switchesNs = switches * m.switchNs;
  const routersNs = routers * m.routerNs;
  const cablesNs = metres * m.cableNsPerMetre;
  return {
    latencyNs: endpointsNs + switchesNs + routersNs + cablesNs,
    endpointsNs,
    switchesNs,
    routersNs,
    cablesNs,
  };
}
