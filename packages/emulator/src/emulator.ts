import {
  type Fabric,
  type ForwardingTables,
  fatTreeRouting,
  linkDataBytesPerSecond,
  mulberry32,
  type Random,
  sweepTables,
} from '@fabscope/topology';
import { adjustRoutes } from './adaptive-routing.ts';
import {
  type AdaptiveRoutingConfig,
  adjustmentIntervalMs,
  applyAdaptiveRoutingPatch,
  DEFAULT_ADAPTIVE_ROUTING,
} from './ar-config.ts';
import { ChannelLoad } from './channel-load.ts';
import { DATA_UNIT_BYTES, PACKET_PAYLOAD_BYTES } from './counters.ts';
import {
  DEFAULT_SWEEP_DELAY_MS,
  type Emulator,
  type EmulatorJob,
  type EmulatorOptions,
  type FlowFilter,
  type HealthDocument,
  type HostLoad,
  type HostTelemetry,
  type RoutingState,
} from './emulator-types.ts';
import { type FaultInfo, resolveFault } from './faults.ts';
import { hostLoads, hostTelemetry, NodeClocks, type TelemetrySources } from './host-telemetry.ts';
import { LinkState } from './link-state.ts';
import { Networks } from './networks.ts';
import { PathFinder } from './paths.ts';
import { PortCounterBank } from './port-counters.ts';
import { type PortCountersDocument, PortsDocumentBuilder } from './ports-document.ts';
import { expandTraffic } from './traffic/expand.ts';
import { FlowTable } from './traffic/flow-table.ts';
import { type FlowInfo, type StartFlowsRequest, TrafficError } from './traffic/request.ts';
import { flowInfo } from './traffic/running-flows.ts';

export function createEmulator(options: EmulatorOptions): Emulator {
  return new FabricEmulator(options);
}

/**
 * The virtual clock composing the parts: it advances time event by event (flow starts and ends,
 * flaps, the fabric manager's sweep, adaptive-routing passes), recomputes the load after every
 * change (channel-load.ts) and accrues the counters at that load in between (port-counters.ts).
 * Links and faults are link-state.ts's, host telemetry host-telemetry.ts's.
 */
class FabricEmulator implements Emulator {
  readonly fabric: Fabric;
  readonly sweepDelayMs: number;
  private readonly seed: number;
  private readonly routing: (fabric: Fabric) => ForwardingTables;
  /** The tables come from outside (a real subnet manager's, through useTables): never sweep. */
  private readonly externalRouting: boolean;
  private finder: PathFinder;
  private networks: Networks;
  private readonly random: Random;
  private readonly isSwitch: Uint8Array;
  private readonly links: LinkState;
  private readonly ports: PortCounterBank;
  private readonly load: ChannelLoad;
  private readonly clocks: NodeClocks;
  private readonly documents: PortsDocumentBuilder;
  /** Line rate per channel (bytes/s), and what is left of it: 0 while the link is down. */
  private readonly lineCapacity: Float64Array;
  private readonly capacities: Float64Array;
  private readonly mtu: number;
  private readonly flows: FlowTable;
  private nextFaultId = 1;
  private clockMs: number;
  private ar: AdaptiveRoutingConfig = { ...DEFAULT_ADAPTIVE_ROUTING };
  private nextAdjustMs = Number.POSITIVE_INFINITY;
  private sweepAtMs = Number.POSITIVE_INFINITY;
  private routingNow: RoutingState;
  private dirty = true;
  /** Bumped at every rate recomputation; adaptive routing skips passes while settled at it. */
  private version = 0;
  private settledAt = -1;

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
    this.externalRouting = options.externalRouting ?? false;
    this.clockMs = startTimeMs;
    this.random = mulberry32(seed);
    this.finder = new PathFinder(fabric, tables);
    this.networks = new Networks(fabric, this.finder);
    this.routingNow = { sweep: 0, engine: tables.engine, downLinks: [], sweptAtMs: null };
    this.flows = new FlowTable(fabric);
    const channelCount = fabric.links.length * 2;
    this.isSwitch = Uint8Array.from(fabric.nodes, (n) => (n.type === 'switch' ? 1 : 0));
    this.mtu = PACKET_PAYLOAD_BYTES[fabric.fabricType];
    const { ticksPerSecond, lineCapacity } = channelRates(fabric);
    this.lineCapacity = lineCapacity;
    this.capacities = this.lineCapacity.slice();
    this.clocks = new NodeClocks(fabric.nodes.length, startTimeMs);
    this.links = new LinkState(fabric, {
      linkChanged: (l, up, fromFlap) => this.linkChanged(l, up, fromFlap),
      restartNode: (node) => {
        for (const out of this.finder.outputs(node.index)) this.ports.reset(out, true);
        this.clocks.reboot(node.index, this.clockMs);
      },
      clearPort: (out) => this.ports.reset(out, false),
      errorsChanged: () => {
        this.dirty = true;
      },
    });
    this.ports = new PortCounterBank(channelCount, fabric.fabricType, this.links);
    this.load = new ChannelLoad(
      fabric,
      this.links.symbolRate,
      { ticksPerSecond, lineCapacity: this.lineCapacity, mtu: this.mtu },
      this.links.directRates,
    );
    this.documents = new PortsDocumentBuilder(fabric);
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
    const started = this.flows.start(specs, this.links.linkUp, {
      nowMs: this.clockMs,
      lineCapacity: this.lineCapacity,
      networks: this.networks,
      mtu: this.mtu,
    });
    this.dirty = true;
    this.refresh();
    return started.map((f) => flowInfo(this.fabric, f));
  }

  listFlows(filter: FlowFilter = {}): FlowInfo[] {
    this.refresh();
    return this.flows.list(filter);
  }

  flowsVersion(): number {
    this.refresh();
    return this.version;
  }

  listJobs(): EmulatorJob[] {
    this.refresh();
    return this.flows.jobs();
  }

  stopAllFlows(): void {
    this.flows.flows = [];
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
      for (const flow of this.flows.flows) flow.path = flow.staticPath;
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
    const info = this.links.apply(fault, `x${this.nextFaultId++}`, this.clockMs);
    // A flap starts now: its first transition (down) is due at once.
    if (fault.type === 'flap') this.processDue();
    this.refresh();
    return info;
  }

  listFaults(): FaultInfo[] {
    return this.links.list();
  }

  clearFaults(): void {
    this.links.clear();
    this.refresh();
  }

  routingState(): RoutingState {
    return { ...this.routingNow, downLinks: [...this.routingNow.downLinks] };
  }

  portCounters(): PortCountersDocument {
    return this.documents.build(this.clockMs, this.ports.reader(), this.links.linkUp);
  }

  portCountersJson(): Buffer[] {
    return this.documents.buildJson(this.clockMs, this.ports.reader(), this.links.linkUp);
  }

  portCountersArrow(): Uint8Array {
    return this.documents.buildArrow(this.clockMs, this.ports.reader(), this.links.linkUp);
  }

  hostLoads(): HostLoad[] {
    this.refresh();
    return hostLoads(this.telemetrySources());
  }

  hostTelemetry(): HostTelemetry[] {
    this.refresh();
    return hostTelemetry(this.telemetrySources());
  }

  health(): HealthDocument {
    return {
      status: 'ok',
      fabric: this.fabric.name,
      fabricType: this.fabric.fabricType,
      timeMs: this.clockMs,
    };
  }

  private telemetrySources(): TelemetrySources {
    return {
      fabric: this.fabric,
      finder: this.finder,
      load: this.load,
      ports: this.ports,
      clocks: this.clocks,
      linkUp: this.links.linkUp,
    };
  }

  /** A link went down or came up: its capacity, LinkDowned / LinkErrorRecovery, and a sweep to come. */
  private linkChanged(l: number, up: boolean, fromFlap: boolean): void {
    for (const c of [l * 2, l * 2 + 1]) {
      this.capacities[c] = up ? (this.lineCapacity[c] as number) : 0;
      if (!up) this.ports.countLinkDowned(c);
      else if (fromFlap) this.ports.countRecovery(c);
    }
    this.dirty = true;
    if (this.sweepAtMs === Number.POSITIVE_INFINITY && !this.externalRouting) {
      this.sweepAtMs = this.clockMs + this.sweepDelayMs;
    }
  }

  private accrue(from: number, to: number): void {
    if (!(to - from > 0)) return;
    this.ports.accrue(from, to, this.load);
    this.clocks.accrue(this.load.nodeBusy, (to - from) / 1000);
  }

  private nextEventMs(): number {
    return this.flows.nextEventMs(Math.min(this.nextAdjustMs, this.sweepAtMs, this.links.nextFlapMs()));
  }

  /** Everything due at or before the clock: flow starts and ends, flaps, the sweep, then AR. */
  private processDue(): void {
    const now = this.clockMs;
    if (this.flows.startAndEnd(now)) this.dirty = true;
    this.links.processFlaps(now);
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
    this.applyTables(sweepTables(this.fabric, this.links.linkUp, this.routing));
  }

  useTables(tables: ForwardingTables): void {
    this.advance(0);
    this.applyTables(tables);
  }

  private applyTables(tables: ForwardingTables): void {
    const linkUp = this.links.linkUp;
    this.routingNow = {
      sweep: this.routingNow.sweep + 1,
      engine: tables.engine,
      downLinks: this.fabric.links.filter((l) => linkUp[l.index] !== 1).map((l) => l.id),
      sweptAtMs: this.clockMs,
    };
    this.finder = new PathFinder(this.fabric, tables);
    this.networks = new Networks(this.fabric, this.finder);
    const keepAdaptive = this.ar.enabled && !this.ar.lostRouteOnly;
    this.flows.followTables(this.networks, linkUp, keepAdaptive);
    this.dirty = true;
  }

  private adjust(): void {
    // A pass that moved nothing moves nothing again until rates, routes or links change.
    if (this.settledAt === this.version) return;
    const running = this.flows.running();
    const moves = adjustRoutes(running, this.ar, {
      finder: this.finder,
      capacities: this.capacities,
      linkUp: this.links.linkUp,
      isSwitch: this.isSwitch,
      random: this.random,
      offered: this.load.offered,
    });
    if (moves > 0) this.dirty = true;
    else this.settledAt = this.version;
  }

  /** Recomputes rates and load after any change of flows, routes, links or error rates. */
  private refresh(): void {
    if (!this.dirty) return;
    this.dirty = false;
    this.version++;
    this.load.recompute(
      this.flows.runningAfterReset(),
      this.capacities,
      this.links.linkUp,
      this.finder,
      this.clockMs,
    );
  }
}

/** Each channel's line rate in bytes/s, and in the fabric's counter units per second. */
function channelRates(fabric: Fabric): { ticksPerSecond: Float64Array; lineCapacity: Float64Array } {
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
