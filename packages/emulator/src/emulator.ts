import type {
  EmulatorHealth,
  EmulatorJob,
  FaultInfo,
  FlowFilter,
  HostLoad,
  RoutingState,
} from '@fabscope/contracts';
import type { PortCountersDocument } from '@fabscope/contracts/ports';
import { type Fabric, type ForwardingTables, mulberry32, type Random } from '@fabscope/topology';
import { ChannelLoad, channelRates } from './channel-load.ts';
import { PACKET_PAYLOAD_BYTES } from './counters.ts';
import type { EmulatorOptions, HostTelemetry } from './emulator-types.ts';
import { resolveFault } from './faults/faults.ts';
import { LinkState } from './faults/link-state.ts';
import { hostLoads, hostTelemetry, NodeClocks, type TelemetrySources } from './hosts/host-telemetry.ts';
import { LosslessCounters } from './lossless-counters.ts';
import {
  type EthernetPortCounters,
  ethernetPorts,
  type LosslessCongestion,
  losslessCongestion,
} from './lossless-ports.ts';
import { PortCounterBank } from './port-counters.ts';
import { PortsDocumentBuilder } from './ports-document.ts';
import type { AdaptiveRoutingConfig } from './routing/ar-config.ts';
import { AdaptiveRoutingPasses } from './routing/ar-passes.ts';
import { Networks } from './routing/networks.ts';
import { PathFinder } from './routing/paths.ts';
import { Sweeps } from './routing/sweeps.ts';
import { expandTraffic } from './traffic/expand.ts';
import { FlowTable } from './traffic/flow-table.ts';
import { type FlowInfo, type StartFlowsRequest, TrafficError } from './traffic/request.ts';
import { flowInfo } from './traffic/running-flows.ts';

/** The emulator's public face: FabricEmulator's methods, without its state. */
export type Emulator = Pick<FabricEmulator, keyof FabricEmulator>;

export function createEmulator(options: EmulatorOptions): Emulator {
  return new FabricEmulator(options);
}

/** The virtual clock: advances event by event, recomputing the load after each change. */
class FabricEmulator {
  readonly fabric: Fabric;
  private readonly seed: number;
  private readonly sweeps: Sweeps;
  private finder: PathFinder;
  private networks: Networks;
  private readonly random: Random;
  private readonly isSwitch: Uint8Array;
  private readonly links: LinkState;
  private readonly ports: PortCounterBank;
  private readonly load: ChannelLoad;
  private readonly lossless: LosslessCounters;
  private readonly clocks: NodeClocks;
  private readonly documents: PortsDocumentBuilder;
  /** Line rate per channel (bytes/s), and what is left of it: 0 while the link is down. */
  private readonly lineCapacity: Float64Array;
  private readonly capacities: Float64Array;
  private readonly mtu: number;
  private readonly flows: FlowTable;
  private nextFaultId = 1;
  private clockMs: number;
  private readonly ar = new AdaptiveRoutingPasses();
  private dirty = true;
  /** Bumped at every rate recomputation; adaptive routing skips passes while settled at it. */
  private version = 0;

  constructor(options: EmulatorOptions) {
    const { fabric, tables, seed = 1, startTimeMs = 0 } = options;
    if (!Number.isFinite(startTimeMs)) throw new RangeError(`startTimeMs must be finite, got ${startTimeMs}`);
    this.fabric = fabric;
    this.sweeps = new Sweeps(options);
    this.seed = seed;
    this.clockMs = startTimeMs;
    this.random = mulberry32(seed);
    this.finder = new PathFinder(fabric, tables);
    this.networks = new Networks(fabric, this.finder);
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
        for (const out of this.finder.outputs(node.index)) {
          this.ports.reset(out, true);
          this.lossless.reset(out);
        }
        this.clocks.reboot(node.index, this.clockMs);
      },
      clearPort: (out) => {
        this.ports.reset(out, false);
        this.lossless.reset(out);
      },
      errorsChanged: () => {
        this.dirty = true;
      },
    });
    this.ports = new PortCounterBank(channelCount, fabric.fabricType, this.links);
    const rates = { ticksPerSecond, lineCapacity, mtu: this.mtu };
    this.load = new ChannelLoad(fabric, this.links.symbolRate, rates, this.links.directRates);
    this.documents = new PortsDocumentBuilder(fabric);
    this.lossless = new LosslessCounters(
      lineCapacity.map((bytes) => bytes * 8),
      this.mtu,
    );
  }

  get sweepDelayMs(): number {
    return this.sweeps.delayMs;
  }

  nowMs(): number {
    return this.clockMs;
  }

  /** Moves the virtual clock forward: counters, flow starts and ends, faults, sweeps, adaptive routing. */
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

  /** Starts the flows of a traffic request (any pattern); returns them. Throws TrafficError. */
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

  /** The flows, or those matching `filter` (a filter naming an unknown link matches none). */
  listFlows(filter: FlowFilter = {}): FlowInfo[] {
    this.refresh();
    return this.flows.list(filter);
  }

  /** Changes whenever listFlows' answer may, so paged listings can tell a stale page. */
  flowsVersion(): number {
    this.refresh();
    return this.version;
  }

  /** Jobs: the flows grouped by job name, in the order their first flow started. */
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
    return { ...this.ar.config };
  }

  /** Applies a partial update; throws AdaptiveRoutingConfigError on invalid input. */
  setAdaptiveRouting(patch: Partial<AdaptiveRoutingConfig>): AdaptiveRoutingConfig {
    if (this.ar.set(patch, this.clockMs)) {
      for (const flow of this.flows.flows) flow.path = flow.staticPath;
      this.dirty = true;
    }
    this.refresh();
    return { ...this.ar.config };
  }

  /** Takes a link (`a/port--b/port`) down or back up. Throws TrafficError for an unknown link. */
  setLinkState(linkId: string, state: 'active' | 'down'): void {
    if (state !== 'active' && state !== 'down')
      throw new TrafficError(`link state must be "active" or "down"`);
    this.injectFault({ type: state === 'down' ? 'link-down' : 'link-up', link: linkId });
  }

  /** Injects a fault (link down/up, flap, symbol errors, switch down/up, restart, counter clear). */
  injectFault(request: unknown): FaultInfo {
    const fault = resolveFault(this.fabric, request);
    const info = this.links.apply(fault, `x${this.nextFaultId++}`, this.clockMs);
    // A flap starts now: its first transition (down) is due at once.
    if (fault.type === 'flap') this.processDue();
    this.refresh();
    return info;
  }

  /** Active faults: links held down, flapping links, symbol-error sources, switches down. */
  listFaults(): FaultInfo[] {
    return this.links.list();
  }

  /** Repairs everything: every link and switch up, flapping and symbol errors stopped. */
  clearFaults(): void {
    this.links.clear();
    this.refresh();
  }

  /** The fabric manager's current routing: sweep count, engine, links it routed around. */
  routingState(): RoutingState {
    return this.sweeps.state();
  }

  portCounters(): PortCountersDocument {
    return this.documents.build(this.clockMs, this.ports.reader(), this.links.linkUp);
  }

  /** `portCounters()` as JSON text in chunks, written without building the document (`GET /v1/ports`). */
  portCountersJson(): Buffer[] {
    return this.documents.buildJson(this.clockMs, this.ports.reader(), this.links.linkUp);
  }

  /** `portCounters()` as one Apache Arrow IPC stream (ports-arrow.ts; `GET /v1/ports?format=arrow`). */
  portCountersArrow(): Uint8Array {
    return this.documents.buildArrow(this.clockMs, this.ports.reader(), this.links.linkUp);
  }

  /** Every Ethernet port's PFC pause (rx/tx, ROCE_PRIORITY), ECN marks and discards, as a switch's QoS counters. */
  ethernetPortCounters(): EthernetPortCounters[] {
    this.refresh();
    return ethernetPorts(this.fabric, this.finder, this.lossless, this.ports);
  }

  /** The full buffers of lossless Ethernet now, and the link directions their pause holds back. */
  losslessCongestion(): LosslessCongestion {
    this.refresh();
    return losslessCongestion(this.fabric, this.load.lossless);
  }

  hostLoads(): HostLoad[] {
    this.refresh();
    return hostLoads(this.telemetrySources());
  }

  hostTelemetry(): HostTelemetry[] {
    this.refresh();
    return hostTelemetry(this.telemetrySources());
  }

  health(): EmulatorHealth {
    const { name, fabricType } = this.fabric;
    return { status: 'ok', fabric: name, fabricType, timeMs: this.clockMs };
  }

  private telemetrySources(): TelemetrySources {
    const { fabric, finder, load, ports, lossless, clocks } = this;
    return { fabric, finder, load, ports, lossless, clocks, linkUp: this.links.linkUp };
  }

  /** A link went down or came up: its capacity, LinkDowned / LinkErrorRecovery, and a sweep to come. */
  private linkChanged(l: number, up: boolean, fromFlap: boolean): void {
    for (const c of [l * 2, l * 2 + 1]) {
      this.capacities[c] = up ? (this.lineCapacity[c] as number) : 0;
      if (!up) this.ports.countLinkDowned(c);
      else if (fromFlap) this.ports.countRecovery(c);
    }
    this.dirty = true;
    this.sweeps.linkChanged(this.clockMs);
  }

  private accrue(from: number, to: number): void {
    if (!(to - from > 0)) return;
    this.ports.accrue(from, to, this.load);
    this.lossless.accrue(to - from);
    this.clocks.accrue(this.load.nodeBusy, (to - from) / 1000);
  }

  private nextEventMs(): number {
    return this.flows.nextEventMs(Math.min(this.ar.nextMs, this.sweeps.atMs, this.links.nextFlapMs()));
  }

  /** Everything due at or before the clock: flow starts and ends, flaps, the sweep, then AR. */
  private processDue(): void {
    const now = this.clockMs;
    if (this.flows.startAndEnd(now)) this.dirty = true;
    this.links.processFlaps(now);
    // The fabric manager's sweep: every flow's static path follows the new tables.
    const swept = this.sweeps.due(this.fabric, this.links.linkUp, now);
    if (swept) this.applyTables(swept);
    while (this.ar.due(now)) {
      this.refresh();
      this.adjust();
    }
  }

  /** The subnet manager's new tables (with `externalRouting`): every flow's static path follows them. */
  useTables(tables: ForwardingTables): void {
    this.advance(0);
    this.applyTables(tables);
  }

  private applyTables(tables: ForwardingTables): void {
    const linkUp = this.links.linkUp;
    this.sweeps.applied(this.fabric, tables, linkUp, this.clockMs);
    this.finder = new PathFinder(this.fabric, tables);
    this.networks = new Networks(this.fabric, this.finder);
    this.flows.followTables(this.networks, linkUp, this.ar.keepsAdaptivePaths());
    this.dirty = true;
  }

  private adjust(): void {
    const context = {
      finder: this.finder,
      capacities: this.capacities,
      linkUp: this.links.linkUp,
      isSwitch: this.isSwitch,
      random: this.random,
      offered: this.load.offered,
    };
    if (this.ar.pass(this.flows.running(), context, this.version)) this.dirty = true;
  }

  /** Recomputes rates and load after any change of flows, routes, links or error rates. */
  private refresh(): void {
    if (!this.dirty) return;
    this.dirty = false;
    this.version++;
    const running = this.flows.runningAfterReset();
    this.load.recompute(running, this.capacities, this.links.linkUp, this.finder, this.clockMs);
    this.lossless.update(this.load.lossless, running);
  }
}
