import {
  bytesPerSecondOfRate,
  channelOf,
  type Fabric,
  type FabricNode,
  type FabricType,
  type ForwardingTables,
  NoRouteError,
  routeBetween,
} from '@fabscope/topology';
import { adjustRoutes, type RoutedFlow } from './adaptive-routing.ts';
import {
  type AdaptiveRoutingConfig,
  adjustmentIntervalMs,
  applyAdaptiveRoutingPatch,
  DEFAULT_ADAPTIVE_ROUTING,
} from './ar-config.ts';
import { payloadCapacities } from './capacity.ts';
import { waitFractions } from './congestion.ts';
import { ChannelCounters, DATA_UNIT_BYTES } from './counters.ts';
import { type FlowInfo, parsePairs, type StartFlowsRequest, TrafficError } from './flows.ts';
import { maxMinFair } from './maxmin.ts';
import { PathFinder } from './paths.ts';
import { type PortCountersDocument, PortsDocumentBuilder } from './ports-document.ts';
import { mulberry32, type Random } from './prng.ts';

export interface EmulatorOptions {
  fabric: Fabric;
  tables: ForwardingTables;
  /** Seeds every random choice (adaptive routing's Random and GreedyRandom). Default 1. */
  seed?: number;
  /** Clock value at creation; pass Date.now() for real-time mode. Default 0. */
  startTimeMs?: number;
}

export interface HealthDocument {
  status: 'ok';
  fabric: string;
  fabricType: FabricType;
  timeMs: number;
}

export interface Emulator {
  readonly fabric: Fabric;
  nowMs(): number;
  /** Moves the virtual clock forward, accruing counters and running adaptive routing on its schedule. */
  advance(ms: number): void;
  /** Starts flows that send as fast as their paths allow; returns the new flows. Throws TrafficError. */
  startFlows(request: StartFlowsRequest): FlowInfo[];
  listFlows(): FlowInfo[];
  stopAllFlows(): void;
  getAdaptiveRouting(): AdaptiveRoutingConfig;
  /** Applies a partial update; throws AdaptiveRoutingConfigError on invalid input. */
  setAdaptiveRouting(patch: Partial<AdaptiveRoutingConfig>): AdaptiveRoutingConfig;
  /** Takes a link (`a/port--b/port`) down or back up. Throws TrafficError for an unknown link. */
  setLinkState(linkId: string, state: 'active' | 'down'): void;
  portCounters(): PortCountersDocument;
  health(): HealthDocument;
}

interface Flow extends RoutedFlow {
  id: string;
  from: FabricNode;
  demand: number;
  staticPath: Int32Array;
}

export function createEmulator(options: EmulatorOptions): Emulator {
  return new FabricEmulator(options);
}

class FabricEmulator implements Emulator {
  readonly fabric: Fabric;
  private readonly tables: ForwardingTables;
  private readonly finder: PathFinder;
  private readonly random: Random;
  private readonly linkUp: Uint8Array;
  private readonly isSwitch: Uint8Array;
  private readonly counters: ChannelCounters;
  private readonly documents: PortsDocumentBuilder;
  /** Wait ticks per second when a port waits all the time: one tick per data unit at line rate. */
  private readonly ticksPerSecond: Float64Array;
  private capacities: Float64Array;
  private flows: Flow[] = [];
  private nextFlowId = 1;
  private clockMs: number;
  private ar: AdaptiveRoutingConfig = { ...DEFAULT_ADAPTIVE_ROUTING };
  private nextAdjustMs = Number.POSITIVE_INFINITY;
  private dirty = true;
  private channelRate: Float64Array;
  private channelWaitTicks: Float64Array;
  private activeChannels = new Int32Array(0);

  constructor(options: EmulatorOptions) {
    const { fabric, tables, seed = 1, startTimeMs = 0 } = options;
    if (!Number.isFinite(startTimeMs)) throw new RangeError(`startTimeMs must be finite, got ${startTimeMs}`);
    this.fabric = fabric;
    this.tables = tables;
    this.clockMs = startTimeMs;
    this.random = mulberry32(seed);
    this.finder = new PathFinder(fabric, tables);
    this.linkUp = new Uint8Array(fabric.links.length).fill(1);
    this.isSwitch = Uint8Array.from(fabric.nodes, (n) => (n.type === 'switch' ? 1 : 0));
    const channelCount = fabric.links.length * 2;
    this.counters = new ChannelCounters(channelCount);
    this.documents = new PortsDocumentBuilder(fabric);
    this.capacities = payloadCapacities(fabric, this.linkUp);
    const unit = DATA_UNIT_BYTES[fabric.fabricType];
    this.ticksPerSecond = new Float64Array(channelCount);
    for (const link of fabric.links) {
      const ticks = bytesPerSecondOfRate(link.rateGbps) / unit;
      this.ticksPerSecond[link.index * 2] = ticks;
      this.ticksPerSecond[link.index * 2 + 1] = ticks;
    }
    this.channelRate = new Float64Array(channelCount);
    this.channelWaitTicks = new Float64Array(channelCount);
  }

  nowMs(): number {
    return this.clockMs;
  }

  advance(ms: number): void {
    if (!(ms >= 0) || !Number.isFinite(ms)) throw new RangeError(`advance needs a finite ms ≥ 0, got ${ms}`);
    const end = this.clockMs + ms;
    while (this.clockMs < end) {
      this.refresh();
      const stop = Math.min(end, this.nextAdjustMs);
      this.counters.accrue(this.activeChannels, this.channelRate, this.channelWaitTicks, stop - this.clockMs);
      this.clockMs = stop;
      if (this.clockMs >= this.nextAdjustMs) {
        this.nextAdjustMs += adjustmentIntervalMs(this.ar.arFrequency);
        this.adjust();
      }
    }
    this.refresh();
  }

  startFlows(request: StartFlowsRequest): FlowInfo[] {
    const pairs = parsePairs(this.fabric, request);
    const routes = pairs.map(([from, to]) => {
      try {
        return Int32Array.from(routeBetween(this.fabric, this.tables, from.name, to.name).channels);
      } catch (error) {
        if (error instanceof NoRouteError) throw new TrafficError(error.message);
        throw error;
      }
    });
    const started = pairs.map(([from, dest], i): Flow => {
      const path = routes[i] as Int32Array;
      return {
        id: `f${this.nextFlowId++}`,
        from,
        dest,
        demand: Number.POSITIVE_INFINITY,
        staticPath: path,
        path,
        rate: 0,
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
    const link = this.fabric.links.find((l) => l.id === linkId);
    if (!link) throw new TrafficError(`unknown link "${linkId}"`);
    if (state !== 'active' && state !== 'down')
      throw new TrafficError(`link state must be "active" or "down"`);
    this.linkUp[link.index] = state === 'active' ? 1 : 0;
    this.capacities = payloadCapacities(this.fabric, this.linkUp);
    this.dirty = true;
    this.refresh();
  }

  portCounters(): PortCountersDocument {
    return this.documents.build(this.clockMs, this.counters, this.linkUp);
  }

  health(): HealthDocument {
    return {
      status: 'ok',
      fabric: this.fabric.name,
      fabricType: this.fabric.fabricType,
      timeMs: this.clockMs,
    };
  }

  private adjust(): void {
    const moves = adjustRoutes(this.flows, this.ar, {
      finder: this.finder,
      capacities: this.capacities,
      linkUp: this.linkUp,
      isSwitch: this.isSwitch,
      random: this.random,
    });
    if (moves > 0) this.dirty = true;
  }

  /** Recomputes rates and per-port wait after any change of flows, routes or links. */
  private refresh(): void {
    if (!this.dirty) return;
    this.dirty = false;
    const paths = this.flows.map((f) => f.path);
    const demands = this.flows.map((f) => f.demand);
    const rates = maxMinFair({ paths, demands, capacities: this.capacities });
    this.flows.forEach((flow, i) => {
      flow.rate = rates[i] as number;
    });
    const fractions = waitFractions({ paths, demands, rates, capacities: this.capacities });
    this.channelRate.fill(0);
    for (const flow of this.flows) {
      for (const c of flow.path) this.channelRate[c] = (this.channelRate[c] as number) + flow.rate;
    }
    const active: number[] = [];
    for (let c = 0; c < this.channelRate.length; c++) {
      this.channelWaitTicks[c] = (fractions[c] as number) * (this.ticksPerSecond[c] as number);
      if ((this.channelRate[c] as number) > 0 || (this.channelWaitTicks[c] as number) > 0) active.push(c);
    }
    this.activeChannels = Int32Array.from(active);
  }

  private info(flow: Flow): FlowInfo {
    return {
      id: flow.id,
      from: flow.from.name,
      to: flow.dest.name,
      bytesPerSecond: flow.rate,
      path: Array.from(flow.path, (c) => channelOf(this.fabric, c).id),
    };
  }
}
