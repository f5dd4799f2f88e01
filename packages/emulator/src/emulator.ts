import {
  bytesPerSecondOfRate,
  channelOf,
  type Fabric,
  type FabricNode,
  type FabricType,
  type ForwardingTables,
  fatTreeRouting,
  maxMinFair,
  mulberry32,
  NoRouteError,
  type Random,
  sweepTables,
} from '@fabscope/topology';
import { adjustRoutes, type RoutedFlow } from './adaptive-routing.ts';
import {
  type AdaptiveRoutingConfig,
  adjustmentIntervalMs,
  applyAdaptiveRoutingPatch,
  DEFAULT_ADAPTIVE_ROUTING,
} from './ar-config.ts';
import { offeredLoad } from './congestion.ts';
import { Accumulator, ChannelCounters, DATA_UNIT_BYTES, PACKET_PAYLOAD_BYTES } from './counters.ts';
import { type FaultInfo, type ResolvedFault, resolveFault } from './faults.ts';
import {
  expandTraffic,
  type FlowInfo,
  type FlowSpec,
  type StartFlowsRequest,
  TrafficError,
} from './flows.ts';
import { busyFraction, CPU_COUNT, MEMORY_USED_FRACTION } from './host-load.ts';
import { Networks } from './networks.ts';
import { PathFinder } from './paths.ts';
import {
  PORT_COUNTER_NAMES,
  type PortCounterReader,
  type PortCountersDocument,
  PortsDocumentBuilder,
} from './ports-document.ts';
import { flowEfficiency } from './transport.ts';

export interface EmulatorOptions {
  fabric: Fabric;
  tables: ForwardingTables;
  /** Seeds every random choice (adaptive routing, permutations without a seed). Default 1. */
  seed?: number;
  /** Clock value at creation; pass Date.now() for real-time mode. Default 0. */
  startTimeMs?: number;
  /** The fabric manager's routing engine, rerun on the surviving fabric at each sweep. Default fat-tree. */
  routing?: (fabric: Fabric) => ForwardingTables;
  /** Time from a link change to the fabric manager's sweep that rewrites static routes. Default 10 s. */
  sweepDelayMs?: number;
}

export const DEFAULT_SWEEP_DELAY_MS = 10_000;

/** What the fabric manager's last sweep routed with (`GET /v1/routing`). */
export interface RoutingState {
  /** Sweeps since the emulator started; 0 while the initial tables stand. */
  sweep: number;
  /** Engine of the current tables (`tables.engine`; `minhop-fallback` when the engine gave up). */
  engine: string;
  /** Links (`a/port--b/port`) that were down at the last sweep, so absent from its tables. */
  downLinks: string[];
  /** Emulator clock at the last sweep; null before the first. */
  sweptAtMs: number | null;
}

export interface HealthDocument {
  status: 'ok';
  fabric: string;
  fabricType: FabricType;
  timeMs: number;
}

/** One port of a host or router as its own kernel sees it (bytes, not PM units). */
export interface HostPortTelemetry {
  portNumber: number;
  guid: string;
  lid: number;
  rateGbps: number;
  network: FabricType;
  linkUp: boolean;
  /** Cumulative since the device started or its counters were cleared. */
  xmitBytes: bigint;
  rcvBytes: bigint;
  xmitPkts: bigint;
  rcvPkts: bigint;
  xmitWait: bigint;
  symbolErrors: bigint;
  linkErrorRecovery: bigint;
  linkDowned: bigint;
  rcvErrors: bigint;
  xmitDiscards: bigint;
  /** IP traffic through the port's network interface, since the host booted. */
  ipTxBytes: bigint;
  ipRxBytes: bigint;
  ipTxPkts: bigint;
  ipRxPkts: bigint;
}

export interface HostTelemetry {
  name: string;
  type: 'host' | 'router';
  guid: string;
  description: string;
  bootTimeMs: number;
  /** CPU-seconds spent busy (all CPUs) since boot, and the current busy share of all CPUs. */
  cpuBusySeconds: number;
  cpuBusyFraction: number;
  memoryUsedFraction: number;
  /** Payload bytes/s the node forwards between networks (routers). */
  forwardedBytesPerSecond: number;
  ports: HostPortTelemetry[];
}

/** Live load of a host or router (GET /v1/hosts). */
export interface HostLoad {
  name: string;
  type: 'host' | 'router';
  cpuUtilization: number;
  memoryUtilization: number;
  forwardedBytesPerSecond: number;
  transmitBytesPerSecond: number;
  receiveBytesPerSecond: number;
}

export interface Emulator {
  readonly fabric: Fabric;
  nowMs(): number;
  /** Moves the virtual clock forward: counters, flow starts and ends, faults, sweeps, adaptive routing. */
  advance(ms: number): void;
  /** Starts the flows of a traffic request (any pattern); returns them. Throws TrafficError. */
  startFlows(request: StartFlowsRequest): FlowInfo[];
  listFlows(): FlowInfo[];
  stopAllFlows(): void;
  getAdaptiveRouting(): AdaptiveRoutingConfig;
  /** Applies a partial update; throws AdaptiveRoutingConfigError on invalid input. */
  setAdaptiveRouting(patch: Partial<AdaptiveRoutingConfig>): AdaptiveRoutingConfig;
  /** Takes a link (`a/port--b/port`) down or back up. Throws TrafficError for an unknown link. */
  setLinkState(linkId: string, state: 'active' | 'down'): void;
  /** Injects a fault (link down/up, flap, symbol errors, switch down/up, restart, counter clear). */
  injectFault(request: unknown): FaultInfo;
  /** Active faults: links held down, flapping links, symbol-error sources, switches down. */
  listFaults(): FaultInfo[];
  /** Repairs everything: every link and switch up, flapping and symbol errors stopped. */
  clearFaults(): void;
  readonly sweepDelayMs: number;
  /** The fabric manager's current routing: sweep count, engine, links it routed around. */
  routingState(): RoutingState;
  portCounters(): PortCountersDocument;
  /** `portCounters()` as JSON text in chunks, written without building the document (`GET /v1/ports`). */
  portCountersJson(): Buffer[];
  hostLoads(): HostLoad[];
  hostTelemetry(): HostTelemetry[];
  health(): HealthDocument;
}

interface Flow extends RoutedFlow {
  id: string;
  from: FabricNode;
  spec: FlowSpec;
  efficiency: number;
  /** Largest wire rate the flow asks for (its payload limit ÷ efficiency). */
  wireLimit: number;
  /** Payload bytes/s. `rate` (RoutedFlow) is the wire rate. */
  payload: number;
  staticPath: Int32Array;
  startMs: number;
  endMs: number;
  running: boolean;
  /** Packets per payload byte beyond one per MTU (small messages), on the wire. */
  extraPktsPerByte: number;
  /** IP packets per payload byte (0 for RDMA). */
  ipPktsPerByte: number;
}

/** How long a port must stay oversubscribed (waiting ≥ half the time) before packets hit HoQ lifetime. */
export const DISCARD_GRACE_MS = 1000;
/** Share of the waiting packets discarded once a port stays oversubscribed. */
export const DISCARD_FRACTION = 1e-6;
/** One link error recovery (retrain) per this many symbol errors. */
export const SYMBOL_ERRORS_PER_RECOVERY = 1000;
const IP_MSS: Readonly<Record<FabricType, number>> = { ethernet: 8948, omnipath: 10184, infiniband: 4040 };

const N = PORT_COUNTER_NAMES.length;
const [XMIT_DATA, RCV_DATA, XMIT_PKTS, RCV_PKTS, XMIT_WAIT, SYMBOL, LER, DOWNED, RCV_ERR, DISCARDS] = [
  0, 1, 2, 3, 4, 5, 6, 7, 8, 9,
];

export function createEmulator(options: EmulatorOptions): Emulator {
  return new FabricEmulator(options);
}

class FabricEmulator implements Emulator {
  readonly fabric: Fabric;
  readonly sweepDelayMs: number;
  private readonly seed: number;
  private readonly routing: (fabric: Fabric) => ForwardingTables;
  private finder: PathFinder;
  private networks: Networks;
  private readonly random: Random;
  private readonly isSwitch: Uint8Array;
  private readonly counters: ChannelCounters;
  private readonly extraPkts: Accumulator;
  private readonly ipBytes: Accumulator;
  private readonly ipPkts: Accumulator;
  /** Per port (index: the port's output channel). */
  private readonly portErrors: Accumulator[];
  /** Per port raw counter values at the last restart or clear, in PORT_COUNTER_NAMES order (data in bytes). */
  private readonly bases: BigUint64Array[];
  /** Per port IP counter values at the last restart: tx bytes, rx bytes, tx pkts, rx pkts. */
  private readonly netBases: BigUint64Array[];
  private readonly documents: PortsDocumentBuilder;
  private readonly ticksPerSecond: Float64Array;
  private readonly lineCapacity: Float64Array;
  private readonly linkUp: Uint8Array;
  private readonly adminDown: Uint8Array;
  private readonly flapDown: Uint8Array;
  private readonly nodeDown: Uint8Array;
  private readonly capacities: Float64Array;
  private readonly mtu: number;
  private flows: Flow[] = [];
  private nextFlowId = 1;
  private nextFaultId = 1;
  private clockMs: number;
  private ar: AdaptiveRoutingConfig = { ...DEFAULT_ADAPTIVE_ROUTING };
  private nextAdjustMs = Number.POSITIVE_INFINITY;
  private sweepAtMs = Number.POSITIVE_INFINITY;
  private routing_: RoutingState;
  private dirty = true;
  private readonly channelPayload: Float64Array;
  private readonly channelWire: Float64Array;
  private readonly channelWaitTicks: Float64Array;
  private readonly channelExtraPkts: Float64Array;
  private readonly channelIpBytes: Float64Array;
  private readonly channelIpPkts: Float64Array;
  private readonly congestedSince: Float64Array;
  private readonly discardRate: Float64Array;
  private readonly symbolRate: Float64Array;
  private readonly rcvErrorRate: Float64Array;
  private readonly recoveryRate: Float64Array;
  private activeChannels = new Int32Array(0);
  private offered: Float64Array<ArrayBufferLike> = new Float64Array(0);
  /** Bumped at every rate recomputation; adaptive routing skips passes while settled at it. */
  private version = 0;
  private settledAt = -1;
  private errorPorts = new Int32Array(0);
  private congested: number[] = [];
  private readonly flaps = new Map<
    number,
    { id: string; periodMs: number; downMs: number; nextMs: number; sinceMs: number }
  >();
  private readonly activeFaults = new Map<string, FaultInfo>();
  private readonly nodeBusy: Float64Array;
  private readonly nodeForwarded: Float64Array;
  private readonly cpuBusySeconds: Float64Array;
  private readonly bootTimeMs: Float64Array;

  constructor(options: EmulatorOptions) {
    const { fabric, tables, seed = 1, startTimeMs = 0 } = options;
    if (!Number.isFinite(startTimeMs)) throw new RangeError(`startTimeMs must be finite, got ${startTimeMs}`);
    const sweepDelayMs = options.sweepDelayMs ?? DEFAULT_SWEEP_DELAY_MS;
    if (!(sweepDelayMs >= 0) || !Number.isFinite(sweepDelayMs)) {
      throw new RangeError(`sweepDelayMs must be a finite number ≥ 0, got ${sweepDelayMs}`);
    }
    this.fabric = fabric;
    this.sweepDelayMs = sweepDelayMs;
    this.seed = seed;
    this.routing = options.routing ?? fatTreeRouting;
    this.clockMs = startTimeMs;
    this.random = mulberry32(seed);
    this.finder = new PathFinder(fabric, tables);
    this.networks = new Networks(fabric, this.finder);
    this.routing_ = { sweep: 0, engine: tables.engine, downLinks: [], sweptAtMs: null };
    const linkCount = fabric.links.length;
    const channelCount = linkCount * 2;
    this.linkUp = new Uint8Array(linkCount).fill(1);
    this.adminDown = new Uint8Array(linkCount);
    this.flapDown = new Uint8Array(linkCount);
    this.nodeDown = new Uint8Array(fabric.nodes.length);
    this.isSwitch = Uint8Array.from(fabric.nodes, (n) => (n.type === 'switch' ? 1 : 0));
    this.counters = new ChannelCounters(channelCount);
    this.extraPkts = new Accumulator(channelCount);
    this.ipBytes = new Accumulator(channelCount);
    this.ipPkts = new Accumulator(channelCount);
    this.portErrors = Array.from({ length: 5 }, () => new Accumulator(channelCount));
    this.bases = Array.from({ length: N }, () => new BigUint64Array(channelCount));
    this.netBases = Array.from({ length: 4 }, () => new BigUint64Array(channelCount));
    this.documents = new PortsDocumentBuilder(fabric);
    this.mtu = PACKET_PAYLOAD_BYTES[fabric.fabricType];
    const unit = DATA_UNIT_BYTES[fabric.fabricType];
    this.ticksPerSecond = new Float64Array(channelCount);
    this.lineCapacity = new Float64Array(channelCount);
    for (const link of fabric.links) {
      const bytes = bytesPerSecondOfRate(link.rateGbps);
      for (const c of [link.index * 2, link.index * 2 + 1]) {
        this.ticksPerSecond[c] = bytes / unit;
        this.lineCapacity[c] = bytes;
      }
    }
    this.capacities = this.lineCapacity.slice();
    this.channelPayload = new Float64Array(channelCount);
    this.channelWire = new Float64Array(channelCount);
    this.channelWaitTicks = new Float64Array(channelCount);
    this.channelExtraPkts = new Float64Array(channelCount);
    this.channelIpBytes = new Float64Array(channelCount);
    this.channelIpPkts = new Float64Array(channelCount);
    this.congestedSince = new Float64Array(channelCount).fill(Number.POSITIVE_INFINITY);
    this.discardRate = new Float64Array(channelCount);
    this.symbolRate = new Float64Array(channelCount);
    this.rcvErrorRate = new Float64Array(channelCount);
    this.recoveryRate = new Float64Array(channelCount);
    this.nodeBusy = new Float64Array(fabric.nodes.length);
    this.nodeForwarded = new Float64Array(fabric.nodes.length);
    this.cpuBusySeconds = new Float64Array(fabric.nodes.length);
    this.bootTimeMs = new Float64Array(fabric.nodes.length).fill(startTimeMs);
  }

  nowMs(): number {
    return this.clockMs;
  }

  advance(ms: number): void {
    if (!(ms >= 0) || !Number.isFinite(ms)) throw new RangeError(`advance needs a finite ms ≥ 0, got ${ms}`);
    const end = this.clockMs + ms;
    this.processDue();
    while (this.clockMs < end) {
      this.refresh();
      const stop = Math.min(end, this.nextEventMs());
      this.accrue(this.clockMs, stop);
      this.clockMs = stop;
      this.processDue();
    }
    this.refresh();
  }

  startFlows(request: StartFlowsRequest): FlowInfo[] {
    const specs = expandTraffic(this.fabric, this.networks, request, this.seed);
    const routes = specs.map((spec) => {
      try {
        return Int32Array.from(this.networks.path(spec.from, spec.to, this.linkUp));
      } catch (error) {
        if (error instanceof NoRouteError) throw new TrafficError(error.message);
        throw error;
      }
    });
    const started = specs.map((spec, i): Flow => {
      const path = routes[i] as Int32Array;
      const senderRate = this.lineCapacity[path[0] as number] as number;
      const efficiency = flowEfficiency(
        spec.transport,
        spec.messageBytes,
        (senderRate * 8) / 1e9,
        this.networks.typeOfHost(spec.to),
      );
      const m = spec.messageBytes;
      const startMs = this.clockMs + spec.startS * 1000;
      const mss = IP_MSS[this.networks.typeOfHost(spec.to)];
      return {
        id: `f${this.nextFlowId++}`,
        from: spec.from,
        dest: spec.to,
        spec,
        efficiency,
        wireLimit: spec.limit / efficiency,
        payload: 0,
        rate: 0,
        staticPath: path,
        path,
        startMs,
        endMs: startMs + spec.durationS * 1000,
        running: spec.startS === 0,
        extraPktsPerByte: m === null ? 0 : Math.ceil(m / this.mtu) / m - 1 / this.mtu,
        ipPktsPerByte: spec.transport === 'ip' ? 1 / Math.min(mss, m ?? mss) : 0,
      };
    });
    this.flows.push(...started);
    this.dirty = true;
    this.refresh();
    return started.map((f) => this.info(f));
  }

  listFlows(): FlowInfo[] {
    this.refresh();
    return this.flows.map((f) => this.info(f));
  }

  stopAllFlows(): void {
    this.flows = [];
    this.dirty = true;
    this.refresh();
  }

  getAdaptiveRouting(): AdaptiveRoutingConfig {
    return { ...this.ar };
  }

  setAdaptiveRouting(patch: Partial<AdaptiveRoutingConfig>): AdaptiveRoutingConfig {
    const before = this.ar;
    const next = applyAdaptiveRoutingPatch(before, patch);
    this.ar = next;
    const backToStatic = (before.enabled && !next.enabled) || (next.lostRouteOnly && !before.lostRouteOnly);
    if (backToStatic) {
      for (const flow of this.flows) flow.path = flow.staticPath;
      this.dirty = true;
    }
    this.settledAt = -1;
    if (!next.enabled) {
      this.nextAdjustMs = Number.POSITIVE_INFINITY;
    } else if (!before.enabled || before.arFrequency !== next.arFrequency) {
      // The first adjustment comes one full interval after AR is switched on (or re-timed).
      this.nextAdjustMs = this.clockMs + adjustmentIntervalMs(next.arFrequency);
    }
    this.refresh();
    return { ...next };
  }

  setLinkState(linkId: string, state: 'active' | 'down'): void {
    if (state !== 'active' && state !== 'down')
      throw new TrafficError(`link state must be "active" or "down"`);
    this.injectFault({ type: state === 'down' ? 'link-down' : 'link-up', link: linkId });
  }

  injectFault(request: unknown): FaultInfo {
    const fault = resolveFault(this.fabric, request);
    const id = `x${this.nextFaultId++}`;
    const info = this.applyFault(fault, id);
    this.refresh();
    return info;
  }

  listFaults(): FaultInfo[] {
    return [...this.activeFaults.values()].map((f) => ({ ...f }));
  }

  clearFaults(): void {
    for (const link of this.fabric.links) {
      this.adminDown[link.index] = 0;
      this.flapDown[link.index] = 0;
    }
    this.nodeDown.fill(0);
    this.flaps.clear();
    this.symbolRate.fill(0);
    this.activeFaults.clear();
    for (const link of this.fabric.links) this.updateLink(link.index, false);
    this.refresh();
  }

  routingState(): RoutingState {
    return { ...this.routing_, downLinks: [...this.routing_.downLinks] };
  }

  portCounters(): PortCountersDocument {
    return this.documents.build(this.clockMs, this.portReader(), this.linkUp);
  }

  portCountersJson(): Buffer[] {
    return this.documents.buildJson(this.clockMs, this.portReader(), this.linkUp);
  }

  /** Reads a port's counters in the document's units. */
  private portReader(): PortCounterReader {
    const unit = BigInt(DATA_UNIT_BYTES[this.fabric.fabricType]);
    return (out, into) => {
      this.readPort(out, into);
      into[XMIT_DATA] = (into[XMIT_DATA] as bigint) / unit;
      into[RCV_DATA] = (into[RCV_DATA] as bigint) / unit;
    };
  }

  hostLoads(): HostLoad[] {
    this.refresh();
    return this.endpoints().map((node) => {
      let tx = 0;
      let rx = 0;
      for (const c of this.finder.outputs(node.index)) {
        tx += this.channelPayload[c] as number;
        rx += this.channelPayload[c ^ 1] as number;
      }
      return {
        name: node.name,
        type: node.type as 'host' | 'router',
        cpuUtilization: this.nodeBusy[node.index] as number,
        memoryUtilization: MEMORY_USED_FRACTION,
        forwardedBytesPerSecond: this.nodeForwarded[node.index] as number,
        transmitBytesPerSecond: tx,
        receiveBytesPerSecond: rx,
      };
    });
  }

  hostTelemetry(): HostTelemetry[] {
    this.refresh();
    const values: bigint[] = new Array(N).fill(0n);
    return this.endpoints().map((node) => {
      const ports: HostPortTelemetry[] = [];
      for (const port of node.ports) {
        if (!port || port.link < 0) continue;
        const out = this.finder.channelAt(node.index, port.number);
        this.readPort(out, values);
        const net = (i: number, raw: bigint) => BigInt.asUintN(64, raw - (this.netBases[i]?.[out] as bigint));
        ports.push({
          portNumber: port.number,
          guid: port.guid,
          lid: port.lid,
          rateGbps: port.rateGbps,
          network: this.fabric.links[port.link]?.fabricType ?? this.fabric.fabricType,
          linkUp: this.linkUp[port.link] === 1,
          xmitBytes: values[XMIT_DATA] as bigint,
          rcvBytes: values[RCV_DATA] as bigint,
          xmitPkts: values[XMIT_PKTS] as bigint,
          rcvPkts: values[RCV_PKTS] as bigint,
          xmitWait: values[XMIT_WAIT] as bigint,
          symbolErrors: values[SYMBOL] as bigint,
          linkErrorRecovery: values[LER] as bigint,
          linkDowned: values[DOWNED] as bigint,
          rcvErrors: values[RCV_ERR] as bigint,
          xmitDiscards: values[DISCARDS] as bigint,
          ipTxBytes: net(0, this.ipBytes.totals[out] as bigint),
          ipRxBytes: net(1, this.ipBytes.totals[out ^ 1] as bigint),
          ipTxPkts: net(2, this.ipPkts.totals[out] as bigint),
          ipRxPkts: net(3, this.ipPkts.totals[out ^ 1] as bigint),
        });
      }
      return {
        name: node.name,
        type: node.type as 'host' | 'router',
        guid: node.guid,
        description: node.description ?? node.name,
        bootTimeMs: this.bootTimeMs[node.index] as number,
        cpuBusySeconds: this.cpuBusySeconds[node.index] as number,
        cpuBusyFraction: this.nodeBusy[node.index] as number,
        memoryUsedFraction: MEMORY_USED_FRACTION,
        forwardedBytesPerSecond: this.nodeForwarded[node.index] as number,
        ports,
      };
    });
  }

  health(): HealthDocument {
    return {
      status: 'ok',
      fabric: this.fabric.name,
      fabricType: this.fabric.fabricType,
      timeMs: this.clockMs,
    };
  }

  // ---- faults ---------------------------------------------------------------------------------

  private applyFault(fault: ResolvedFault, id: string): FaultInfo {
    const sinceMs = this.clockMs;
    switch (fault.type) {
      case 'link-down':
      case 'link-up': {
        const l = fault.link.index;
        const key = `link:${l}`;
        this.flaps.delete(l);
        this.flapDown[l] = 0;
        this.activeFaults.delete(`flap:${l}`);
        this.adminDown[l] = fault.type === 'link-down' ? 1 : 0;
        const info: FaultInfo = { id, type: fault.type, target: fault.link.id, sinceMs };
        if (fault.type === 'link-down') this.activeFaults.set(key, info);
        else this.activeFaults.delete(key);
        this.updateLink(l, false);
        return info;
      }
      case 'flap': {
        const l = fault.link.index;
        this.adminDown[l] = 0;
        this.activeFaults.delete(`link:${l}`);
        this.flaps.set(l, { id, periodMs: fault.periodMs, downMs: fault.downMs, nextMs: sinceMs, sinceMs });
        const info: FaultInfo = {
          id,
          type: 'flap',
          target: fault.link.id,
          sinceMs,
          period: fault.periodMs / 1000,
          downFor: fault.downMs / 1000,
        };
        this.activeFaults.set(`flap:${l}`, info);
        this.processDue();
        return info;
      }
      case 'symbol-errors': {
        for (const p of fault.ports) this.symbolRate[p] = fault.rate;
        const key = `symbols:${fault.target}`;
        const info: FaultInfo = { id, type: fault.type, target: fault.target, sinceMs, rate: fault.rate };
        if (fault.rate > 0) this.activeFaults.set(key, info);
        else this.activeFaults.delete(key);
        this.dirty = true;
        return info;
      }
      case 'switch-down':
      case 'switch-up': {
        const n = fault.node;
        const key = `switch:${n.index}`;
        const down = fault.type === 'switch-down';
        const wasDown = this.nodeDown[n.index] === 1;
        this.nodeDown[n.index] = down ? 1 : 0;
        const info: FaultInfo = { id, type: fault.type, target: n.name, sinceMs };
        if (down) this.activeFaults.set(key, info);
        else this.activeFaults.delete(key);
        // A switch that comes back has rebooted: its counters start again from 0.
        if (wasDown && !down) this.restartNode(n);
        for (const c of this.finder.outputs(n.index)) this.updateLink(c >> 1, false);
        return info;
      }
      case 'restart':
        this.restartNode(fault.node);
        return { id, type: fault.type, target: fault.node.name, sinceMs };
      case 'clear-counters':
        for (const out of fault.ports) this.resetPort(out, false);
        return { id, type: fault.type, target: fault.target, sinceMs };
    }
  }

  /** Re-derives a link's state from its causes; counts LinkDowned and schedules a sweep on change. */
  private updateLink(l: number, fromFlap: boolean): void {
    const link = this.fabric.links[l];
    if (!link) return;
    const a = this.fabric.nodeByName.get(link.a.node) as FabricNode;
    const b = this.fabric.nodeByName.get(link.b.node) as FabricNode;
    const up =
      this.adminDown[l] === 0 &&
      this.flapDown[l] === 0 &&
      this.nodeDown[a.index] === 0 &&
      this.nodeDown[b.index] === 0
        ? 1
        : 0;
    if (up === this.linkUp[l]) return;
    this.linkUp[l] = up;
    for (const c of [l * 2, l * 2 + 1]) {
      this.capacities[c] = up ? (this.lineCapacity[c] as number) : 0;
      if (!up) (this.portErrors[DOWNED - SYMBOL] as Accumulator).add(c, 1n);
      else if (fromFlap) (this.portErrors[LER - SYMBOL] as Accumulator).add(c, 1n);
    }
    this.dirty = true;
    if (this.sweepAtMs === Number.POSITIVE_INFINITY) this.sweepAtMs = this.clockMs + this.sweepDelayMs;
  }

  private restartNode(node: FabricNode): void {
    for (const out of this.finder.outputs(node.index)) this.resetPort(out, true);
    this.bootTimeMs[node.index] = this.clockMs;
    this.cpuBusySeconds[node.index] = 0;
  }

  /** Counters of one port start again from 0 (a clear by another tool; with `reboot`, the OS counters too). */
  private resetPort(out: number, reboot: boolean): void {
    const raw: bigint[] = new Array(N).fill(0n);
    this.readRaw(out, raw);
    for (let i = 0; i < N; i++) (this.bases[i] as BigUint64Array)[out] = raw[i] as bigint;
    if (reboot) {
      (this.netBases[0] as BigUint64Array)[out] = this.ipBytes.totals[out] as bigint;
      (this.netBases[1] as BigUint64Array)[out] = this.ipBytes.totals[out ^ 1] as bigint;
      (this.netBases[2] as BigUint64Array)[out] = this.ipPkts.totals[out] as bigint;
      (this.netBases[3] as BigUint64Array)[out] = this.ipPkts.totals[out ^ 1] as bigint;
    }
  }

  // ---- counters -------------------------------------------------------------------------------

  /** Raw cumulative values of a port (data in bytes), before restarts and clears. */
  private readRaw(out: number, into: bigint[]): void {
    const { bytes, waitTicks } = this.counters;
    const mtu = BigInt(this.mtu);
    const sent = bytes[out] as bigint;
    const received = bytes[out ^ 1] as bigint;
    into[XMIT_DATA] = sent;
    into[RCV_DATA] = received;
    into[XMIT_PKTS] = sent / mtu + (this.extraPkts.totals[out] as bigint);
    into[RCV_PKTS] = received / mtu + (this.extraPkts.totals[out ^ 1] as bigint);
    into[XMIT_WAIT] = waitTicks[out] as bigint;
    for (let i = SYMBOL; i < N; i++)
      into[i] = (this.portErrors[i - SYMBOL] as Accumulator).totals[out] as bigint;
  }

  /** Values as the port shows them: raw minus the values at its last restart or clear. */
  private readPort(out: number, into: bigint[]): void {
    this.readRaw(out, into);
    for (let i = 0; i < N; i++)
      into[i] = BigInt.asUintN(64, (into[i] as bigint) - (this.bases[i]?.[out] as bigint));
  }

  private accrue(from: number, to: number): void {
    const dt = to - from;
    if (!(dt > 0)) return;
    const channels = this.activeChannels;
    this.counters.accrue(channels, this.channelPayload, this.channelWaitTicks, dt);
    this.extraPkts.accrue(channels, this.channelExtraPkts, dt);
    this.ipBytes.accrue(channels, this.channelIpBytes, dt);
    this.ipPkts.accrue(channels, this.channelIpPkts, dt);
    const [symbols, recoveries, , rcvErrors, discards] = this.portErrors as [
      Accumulator,
      Accumulator,
      Accumulator,
      Accumulator,
      Accumulator,
    ];
    symbols.accrue(this.errorPorts, this.symbolRate, dt);
    recoveries.accrue(this.errorPorts, this.recoveryRate, dt);
    rcvErrors.accrue(this.errorPorts, this.rcvErrorRate, dt);
    for (const c of this.congested) {
      const overlap = to - Math.max(from, (this.congestedSince[c] as number) + DISCARD_GRACE_MS);
      if (overlap > 0) discards.addAmount(c, ((this.discardRate[c] as number) * overlap) / 1000);
    }
    const seconds = dt / 1000;
    for (let n = 0; n < this.nodeBusy.length; n++) {
      const busy = this.nodeBusy[n] as number;
      if (busy > 0) this.cpuBusySeconds[n] = (this.cpuBusySeconds[n] as number) + busy * CPU_COUNT * seconds;
    }
  }

  // ---- clock ----------------------------------------------------------------------------------

  private nextEventMs(): number {
    let next = Math.min(this.nextAdjustMs, this.sweepAtMs);
    for (const flap of this.flaps.values()) next = Math.min(next, flap.nextMs);
    for (const flow of this.flows) next = Math.min(next, flow.running ? flow.endMs : flow.startMs);
    return next;
  }

  /** Everything due at or before the clock: flow starts and ends, flaps, the sweep, then AR. */
  private processDue(): void {
    const now = this.clockMs;
    let changed = false;
    const kept: Flow[] = [];
    for (const flow of this.flows) {
      if (flow.endMs <= now) {
        changed = true;
        continue;
      }
      if (!flow.running && flow.startMs <= now) {
        flow.running = true;
        changed = true;
      }
      kept.push(flow);
    }
    if (changed) {
      this.flows = kept;
      this.dirty = true;
    }
    for (const [l, flap] of this.flaps) {
      while (flap.nextMs <= now) {
        const phase = (flap.nextMs - flap.sinceMs) % flap.periodMs;
        const goingDown = phase === 0;
        this.flapDown[l] = goingDown ? 1 : 0;
        this.updateLink(l, !goingDown);
        flap.nextMs += goingDown ? flap.downMs : flap.periodMs - flap.downMs;
      }
    }
    if (this.sweepAtMs <= now) {
      this.sweepAtMs = Number.POSITIVE_INFINITY;
      this.sweep();
    }
    while (this.nextAdjustMs <= now) {
      this.nextAdjustMs += adjustmentIntervalMs(this.ar.arFrequency);
      this.refresh();
      this.adjust();
    }
  }

  /**
   * The fabric manager's sweep: routes are recomputed on the fabric as it now is (down links
   * uncabled) and every flow's static path follows the new tables. Flows adaptive routing moved
   * keep their path while it is intact.
   */
  private sweep(): void {
    // When the engine gives up on what is left, the tables are empty and paths fall back to min-hop.
    const tables = sweepTables(this.fabric, this.linkUp, this.routing);
    this.routing_ = {
      sweep: this.routing_.sweep + 1,
      engine: tables.engine,
      downLinks: this.fabric.links.filter((l) => this.linkUp[l.index] !== 1).map((l) => l.id),
      sweptAtMs: this.clockMs,
    };
    this.finder = new PathFinder(this.fabric, tables);
    this.networks = new Networks(this.fabric, this.finder);
    const keepAdaptive = this.ar.enabled && !this.ar.lostRouteOnly;
    for (const flow of this.flows) {
      let path: Int32Array;
      try {
        path = Int32Array.from(this.networks.path(flow.from, flow.dest, this.linkUp));
      } catch (error) {
        if (!(error instanceof NoRouteError)) throw error;
        continue;
      }
      const adaptiveIntact =
        keepAdaptive && flow.path !== flow.staticPath && flow.path.every((c) => this.linkUp[c >> 1] === 1);
      flow.staticPath = path;
      if (!adaptiveIntact) flow.path = path;
    }
    this.dirty = true;
  }

  private adjust(): void {
    // A pass that moved nothing moves nothing again until rates, routes or links change.
    if (this.settledAt === this.version) return;
    const running = this.flows.filter((f) => f.running);
    const moves = adjustRoutes(running, this.ar, {
      finder: this.finder,
      capacities: this.capacities,
      linkUp: this.linkUp,
      isSwitch: this.isSwitch,
      random: this.random,
      offered: this.offered,
    });
    if (moves > 0) this.dirty = true;
    else this.settledAt = this.version;
  }

  /** Recomputes rates, waits, error rates and node load after any change of flows, routes or links. */
  private refresh(): void {
    if (!this.dirty) return;
    this.dirty = false;
    this.version++;
    const running = this.flows.filter((f) => f.running);
    for (const flow of this.flows) {
      if (!flow.running) {
        flow.rate = 0;
        flow.payload = 0;
      }
    }
    const paths = running.map((f) => f.path);
    const demands = running.map((f) => f.wireLimit);
    const rates = maxMinFair({ paths, demands, capacities: this.capacities });
    running.forEach((flow, i) => {
      flow.rate = rates[i] as number;
      flow.payload = flow.rate * flow.efficiency;
    });
    const { carried, offered } = offeredLoad({ paths, demands, rates, capacities: this.capacities });
    this.offered = offered;
    const fractions = new Float64Array(carried.length);
    for (let c = 0; c < carried.length; c++) {
      const o = offered[c] as number;
      if (o > 0) fractions[c] = Math.max(0, 1 - (carried[c] as number) / o);
    }
    this.channelPayload.fill(0);
    this.channelWire.fill(0);
    this.channelExtraPkts.fill(0);
    this.channelIpBytes.fill(0);
    this.channelIpPkts.fill(0);
    this.nodeForwarded.fill(0);
    const ipEndpoint = new Float64Array(this.fabric.nodes.length);
    for (const flow of running) {
      if (!(flow.payload > 0)) continue;
      const p = flow.payload;
      for (let i = 0; i < flow.path.length; i++) {
        const c = flow.path[i] as number;
        this.channelPayload[c] = (this.channelPayload[c] as number) + p;
        this.channelWire[c] = (this.channelWire[c] as number) + flow.rate;
        if (flow.extraPktsPerByte > 0)
          this.channelExtraPkts[c] = (this.channelExtraPkts[c] as number) + p * flow.extraPktsPerByte;
        if (flow.ipPktsPerByte > 0) {
          this.channelIpBytes[c] = (this.channelIpBytes[c] as number) + p;
          this.channelIpPkts[c] = (this.channelIpPkts[c] as number) + p * flow.ipPktsPerByte;
        }
        if (i > 0) {
          const via = this.finder.channelFromNode[c] as number;
          if (this.fabric.nodes[via]?.type === 'router')
            this.nodeForwarded[via] = (this.nodeForwarded[via] as number) + p;
        }
      }
      if (flow.ipPktsPerByte > 0) {
        ipEndpoint[flow.from.index] = (ipEndpoint[flow.from.index] as number) + p;
        ipEndpoint[flow.dest.index] = (ipEndpoint[flow.dest.index] as number) + p;
      }
    }
    const active: number[] = [];
    const congested: number[] = [];
    for (let c = 0; c < this.channelPayload.length; c++) {
      const fraction = fractions[c] as number;
      this.channelWaitTicks[c] = fraction * (this.ticksPerSecond[c] as number);
      if ((this.channelPayload[c] as number) > 0 || (this.channelWaitTicks[c] as number) > 0) active.push(c);
      if (fraction >= 0.5) {
        if (this.congestedSince[c] === Number.POSITIVE_INFINITY) this.congestedSince[c] = this.clockMs;
        const packets = (this.channelPayload[c] as number) / this.mtu + (this.channelExtraPkts[c] as number);
        this.discardRate[c] = packets * DISCARD_FRACTION * fraction;
        congested.push(c);
      } else {
        this.congestedSince[c] = Number.POSITIVE_INFINITY;
        this.discardRate[c] = 0;
      }
    }
    this.activeChannels = Int32Array.from(active);
    this.congested = congested;
    const errorPorts: number[] = [];
    for (let p = 0; p < this.symbolRate.length; p++) {
      const rate = this.symbolRate[p] as number;
      if (!(rate > 0) || this.linkUp[p >> 1] !== 1) {
        this.rcvErrorRate[p] = 0;
        this.recoveryRate[p] = 0;
        continue;
      }
      // A symbol error corrupts a packet when it hits one: with the share of time the port receives.
      const incoming = p ^ 1;
      const load = Math.min(
        1,
        (this.channelWire[incoming] as number) / (this.lineCapacity[incoming] as number),
      );
      this.rcvErrorRate[p] = rate * load;
      this.recoveryRate[p] = rate / SYMBOL_ERRORS_PER_RECOVERY;
      errorPorts.push(p);
    }
    this.errorPorts = Int32Array.from(errorPorts);
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

  private endpoints(): FabricNode[] {
    return this.fabric.nodes.filter((n) => n.type !== 'switch');
  }

  private info(flow: Flow): FlowInfo {
    return {
      id: flow.id,
      from: flow.from.name,
      to: flow.dest.name,
      bytesPerSecond: flow.payload,
      path: Array.from(flow.path, (c) => channelOf(this.fabric, c).id),
      pattern: flow.spec.pattern,
      transport: flow.spec.transport,
      messageBytes: flow.spec.messageBytes,
      state: flow.running ? 'running' : 'pending',
      startMs: flow.startMs,
      endMs: Number.isFinite(flow.endMs) ? flow.endMs : null,
    };
  }
}
