import {
  bytesPerSecondOfRate,
  type Fabric,
  type FabricNode,
  linkDataBytesPerSecond,
  maxMinFair,
} from '@fabscope/topology';
import { offeredLoad, waitingShares } from './congestion.ts';
import { DATA_UNIT_BYTES } from './counters.ts';
import { busyFraction } from './hosts/host-load.ts';
import { type LosslessState, losslessEthernet } from './lossless.ts';
import type { CounterRates } from './port-counters.ts';
import type { PathFinder } from './routing/paths.ts';

/** Share of the waiting packets discarded once a port stays oversubscribed. */
export const DISCARD_FRACTION = 1e-6;
/** One link error recovery (retrain) per this many symbol errors. */
export const SYMBOL_ERRORS_PER_RECOVERY = 1000;

/** A running flow as the load model sees it. */
export interface LoadedFlow {
  from: FabricNode;
  dest: FabricNode;
  path: Int32Array;
  /** Largest wire rate the flow asks for. */
  wireLimit: number;
  /** Payload share of the wire rate. */
  efficiency: number;
  /** Packets per payload byte beyond one per MTU (small messages), on the wire. */
  extraPktsPerByte: number;
  /** IP packets per payload byte (0 for RDMA). */
  ipPktsPerByte: number;
  /** RDMA over Ethernet: ECN-capable, its sender runs DCQCN. */
  roce: boolean;
  /** Set here: the full channel whose PFC pause slows the flow though it does not cross it (-1: none). */
  victimOf: number;
  /** Set here: its RoCE packets are ECN-marked at a full switch egress. */
  ecnMarked: boolean;
  /** Set here: wire and payload bytes/s. */
  rate: number;
  payload: number;
}

/** Every channel's and node's load at the current flows, routes and capacities, recomputed after any change. */
export class ChannelLoad implements CounterRates {
  activeChannels = new Int32Array(0);
  readonly payload: Float64Array;
  readonly wire: Float64Array;
  readonly waitTicks: Float64Array;
  readonly extraPkts: Float64Array;
  readonly ipBytes: Float64Array;
  readonly ipPkts: Float64Array;
  errorPorts = new Int32Array(0);
  directPorts = new Int32Array(0);
  readonly recoveryRate: Float64Array;
  readonly rcvErrorRate: Float64Array;
  congested: number[] = [];
  readonly congestedSince: Float64Array;
  readonly discardRate: Float64Array;
  /** Bytes/s offered per channel (held-back flows offer their full rate up to their bottleneck). */
  offered: Float64Array<ArrayBufferLike> = new Float64Array(0);
  /** Busy share of all CPUs, and payload bytes/s forwarded between networks, per node. */
  readonly nodeBusy: Float64Array;
  readonly nodeForwarded: Float64Array;
  /** PFC pause, ECN marks and victims at the current flows (null on a fabric without Ethernet links). */
  lossless: LosslessState | null = null;
  private readonly ticksPerSecond: Float64Array;
  private readonly lineCapacity: Float64Array;
  private readonly mtu: number;
  /** Per channel: on an Ethernet link; leaving an Ethernet switch (where ECN marks and PFC pauses). */
  private readonly ethernet: Uint8Array;
  private readonly switchEgress: Uint8Array;
  private readonly hasEthernet: boolean;

  constructor(
    private readonly fabric: Fabric,
    /** Symbol errors per second, per port (set by faults); read at each recomputation. */
    readonly symbolRate: Float64Array,
    options: { ticksPerSecond: Float64Array; lineCapacity: Float64Array; mtu: number },
    /** Per DIRECT_ERROR_COUNTERS entry, errors per second per port (set by faults). */
    readonly directRates: readonly Float64Array[] = [],
  ) {
    const channelCount = fabric.links.length * 2;
    this.payload = new Float64Array(channelCount);
    this.wire = new Float64Array(channelCount);
    this.waitTicks = new Float64Array(channelCount);
    this.extraPkts = new Float64Array(channelCount);
    this.ipBytes = new Float64Array(channelCount);
    this.ipPkts = new Float64Array(channelCount);
    this.congestedSince = new Float64Array(channelCount).fill(Number.POSITIVE_INFINITY);
    this.discardRate = new Float64Array(channelCount);
    this.rcvErrorRate = new Float64Array(channelCount);
    this.recoveryRate = new Float64Array(channelCount);
    this.nodeBusy = new Float64Array(fabric.nodes.length);
    this.nodeForwarded = new Float64Array(fabric.nodes.length);
    this.ticksPerSecond = options.ticksPerSecond;
    this.lineCapacity = options.lineCapacity;
    this.mtu = options.mtu;
    this.ethernet = new Uint8Array(channelCount);
    this.switchEgress = new Uint8Array(channelCount);
    for (const link of fabric.links) {
      if ((link.fabricType ?? fabric.fabricType) !== 'ethernet') continue;
      const ends = [link.a.node, link.b.node];
      ends.forEach((name, k) => {
        const c = link.index * 2 + k;
        this.ethernet[c] = 1;
        if (fabric.nodeByName.get(name)?.type === 'switch') this.switchEgress[c] = 1;
      });
    }
    this.hasEthernet = this.ethernet.includes(1);
  }

  /** Sets every running flow's rate and every channel's and node's load; `nowMs` dates new congestion. */
  recompute(
    running: readonly LoadedFlow[],
    capacities: Float64Array,
    linkUp: Uint8Array,
    finder: PathFinder,
    nowMs: number,
  ): void {
    const paths = running.map((f) => f.path);
    const demands = running.map((f) => f.wireLimit);
    let rates = maxMinFair({ paths, demands, capacities });
    this.lossless = null;
    if (this.hasEthernet) {
      const roce = Uint8Array.from(running, (f) => (f.roce ? 1 : 0));
      const { ethernet, switchEgress } = this;
      this.lossless = losslessEthernet({ paths, rates, demands, capacities, roce, ethernet, switchEgress });
      rates = this.lossless.rates;
    }
    const lossless = this.lossless;
    running.forEach((flow, i) => {
      flow.victimOf = lossless ? (lossless.victimOf[i] as number) : -1;
      flow.ecnMarked = lossless?.marked[i] === 1;
      flow.rate = rates[i] as number;
      flow.payload = flow.rate * flow.efficiency;
    });
    const { carried, offered } = offeredLoad({ paths, demands, rates, capacities });
    this.offered = offered;
    const fractions = waitingShares(carried, offered);
    // An Ethernet port waits while PFC pauses it (its tx-wait), never for credit.
    if (this.lossless) {
      for (let c = 0; c < fractions.length; c++)
        if (this.ethernet[c] === 1) fractions[c] = this.lossless.pausedShare[c] as number;
    }
    const ipEndpoint = this.addFlows(running, finder);
    this.updatePorts(fractions, nowMs);
    this.updateErrors(linkUp);
    this.updateNodes(ipEndpoint);
  }

  /** Sums the flows onto their channels; returns IP payload bytes/s sent or received per node. */
  private addFlows(running: readonly LoadedFlow[], finder: PathFinder): Float64Array {
    this.payload.fill(0);
    this.wire.fill(0);
    this.extraPkts.fill(0);
    this.ipBytes.fill(0);
    this.ipPkts.fill(0);
    this.nodeForwarded.fill(0);
    const ipEndpoint = new Float64Array(this.fabric.nodes.length);
    for (const flow of running) {
      if (!(flow.payload > 0)) continue;
      const p = flow.payload;
      for (let i = 0; i < flow.path.length; i++) {
        const c = flow.path[i] as number;
        this.payload[c] = (this.payload[c] as number) + p;
        this.wire[c] = (this.wire[c] as number) + flow.rate;
        if (flow.extraPktsPerByte > 0)
          this.extraPkts[c] = (this.extraPkts[c] as number) + p * flow.extraPktsPerByte;
        if (flow.ipPktsPerByte > 0) {
          this.ipBytes[c] = (this.ipBytes[c] as number) + p;
          this.ipPkts[c] = (this.ipPkts[c] as number) + p * flow.ipPktsPerByte;
        }
        if (i > 0) {
          const via = finder.channelFromNode[c] as number;
          if (this.fabric.nodes[via]?.type === 'router')
            this.nodeForwarded[via] = (this.nodeForwarded[via] as number) + p;
        }
      }
      if (flow.ipPktsPerByte > 0) {
        ipEndpoint[flow.from.index] = (ipEndpoint[flow.from.index] as number) + p;
        ipEndpoint[flow.dest.index] = (ipEndpoint[flow.dest.index] as number) + p;
      }
    }
    return ipEndpoint;
  }

  /** XmitWait per port from its waiting share; discards where a port waits at least half the time. */
  private updatePorts(fractions: Float64Array, nowMs: number): void {
    const active: number[] = [];
    const congested: number[] = [];
    for (let c = 0; c < this.payload.length; c++) {
      const fraction = fractions[c] as number;
      this.waitTicks[c] = fraction * (this.ticksPerSecond[c] as number);
      if ((this.payload[c] as number) > 0 || (this.waitTicks[c] as number) > 0) active.push(c);
      // The lossless priority drops nothing: PFC pauses the sender instead.
      if (fraction >= 0.5 && this.ethernet[c] !== 1) {
        if (this.congestedSince[c] === Number.POSITIVE_INFINITY) this.congestedSince[c] = nowMs;
        const packets = (this.payload[c] as number) / this.mtu + (this.extraPkts[c] as number);
        this.discardRate[c] = packets * DISCARD_FRACTION * fraction;
        congested.push(c);
      } else {
        this.congestedSince[c] = Number.POSITIVE_INFINITY;
        this.discardRate[c] = 0;
      }
    }
    this.activeChannels = Int32Array.from(active);
    this.congested = congested;
  }

  /** Receive errors and retrains where symbol errors hit a port whose link is up. */
  private updateErrors(linkUp: Uint8Array): void {
    const errorPorts: number[] = [];
    for (let p = 0; p < this.symbolRate.length; p++) {
      const rate = this.symbolRate[p] as number;
      if (!(rate > 0) || linkUp[p >> 1] !== 1) {
        this.rcvErrorRate[p] = 0;
        this.recoveryRate[p] = 0;
        continue;
      }
      // A symbol error corrupts a packet when it hits one: with the share of time the port receives.
      const incoming = p ^ 1;
      const load = Math.min(1, (this.wire[incoming] as number) / (this.lineCapacity[incoming] as number));
      this.rcvErrorRate[p] = rate * load;
      this.recoveryRate[p] = rate / SYMBOL_ERRORS_PER_RECOVERY;
      errorPorts.push(p);
    }
    this.errorPorts = Int32Array.from(errorPorts);
    // Error faults count only while the port's link is up (a down link receives nothing).
    const direct: number[] = [];
    for (let p = 0; p < this.symbolRate.length; p++) {
      if (linkUp[p >> 1] !== 1) continue;
      if (this.directRates.some((rates) => (rates[p] as number) > 0)) direct.push(p);
    }
    this.directPorts = Int32Array.from(direct);
  }

  private updateNodes(ipEndpoint: Float64Array): void {
    for (const node of this.fabric.nodes) {
      if (node.type === 'switch') continue;
      let line = 0;
      for (const port of node.ports)
        if (port && port.link >= 0) line = Math.max(line, bytesPerSecondOfRate(port.rateGbps));
      this.nodeBusy[node.index] = busyFraction(
        node.type === 'router',
        this.nodeForwarded[node.index] as number,
        ipEndpoint[node.index] as number,
        line,
      );
    }
  }
}

/** Each channel's line rate in bytes/s, and in the fabric's counter units per second. */
export function channelRates(fabric: Fabric): { ticksPerSecond: Float64Array; lineCapacity: Float64Array } {
  const unit = DATA_UNIT_BYTES[fabric.fabricType];
  const ticksPerSecond = new Float64Array(fabric.links.length * 2);
  const lineCapacity = new Float64Array(fabric.links.length * 2);
  for (const link of fabric.links) {
    const bytes = linkDataBytesPerSecond(link, fabric.fabricType);
    for (const c of [link.index * 2, link.index * 2 + 1]) {
      ticksPerSecond[c] = bytes / unit;
      lineCapacity[c] = bytes;
    }
  }
  return { ticksPerSecond, lineCapacity };
}
