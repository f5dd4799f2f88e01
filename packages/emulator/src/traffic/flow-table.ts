import type { EmulatorJob, FlowFilter } from '@fabscope/contracts';
import { channelOf, type Fabric, NoRouteError } from '@fabscope/topology';
import { flowTuple } from '../routing/ecmp.ts';
import type { Networks } from '../routing/networks.ts';
import { type FlowInfo, type FlowSpec, TrafficError } from './request.ts';
import { type Flow, flowInfo, newFlow } from './running-flows.ts';

/** What a new flow's rates depend on beside its spec and path. */
export interface FlowContext {
  nowMs: number;
  /** Line rate (bytes/s) per channel. */
  lineCapacity: Float64Array;
  networks: Networks;
  mtu: number;
}

/** The emulator's flows, pending and running: started, listed, grouped by job, ended. */
export class FlowTable {
  flows: Flow[] = [];
  private nextFlowId = 1;
  private nextJobNumber = 1;
  /** Link-direction id → channel, built when a flow filter first names a link. */
  private channelById: Map<string, number> | undefined;

  constructor(private readonly fabric: Fabric) {}

  /** Starts the flows of `specs` on the paths `networks` gives them; none starts when one has no route. */
  start(specs: FlowSpec[], linkUp: Uint8Array, context: FlowContext): Flow[] {
    const { networks } = context;
    const first = this.nextFlowId;
    const routes = specs.map((spec, i) => {
      try {
        const tuple = flowTuple(spec.from.name, spec.to.name, first + i);
        return Int32Array.from(networks.flowPath(spec.from, spec.to, linkUp, tuple));
      } catch (error) {
        if (error instanceof NoRouteError) throw new TrafficError(error.message);
        throw error;
      }
    });
    // A request without a job name is a job of its own, named after its first pattern.
    const generated =
      specs.some((s) => s.job === undefined) && specs[0] ? `${specs[0].pattern}-${this.nextJobNumber++}` : '';
    const started = specs.map((spec, i): Flow => {
      const path = routes[i] as Int32Array;
      return newFlow(`f${this.nextFlowId++}`, spec.job ?? generated, spec, path, {
        nowMs: context.nowMs,
        senderBytesPerSecond: context.lineCapacity[path[0] as number] as number,
        destType: networks.typeOfHost(spec.to),
        mtu: context.mtu,
      });
    });
    this.flows.push(...started);
    return started;
  }

  list({ from, to, job, link }: FlowFilter): FlowInfo[] {
    let channel = -1;
    if (link !== undefined) {
      this.channelById ??= new Map(
        Array.from(
          { length: this.fabric.links.length * 2 },
          (_, c) => [channelOf(this.fabric, c).id, c] as const,
        ),
      );
      channel = this.channelById.get(link) ?? -2;
      if (channel === -2) return [];
    }
    const matches = (f: Flow) =>
      (from === undefined || f.from.name === from) &&
      (to === undefined || f.dest.name === to) &&
      (job === undefined || f.job === job) &&
      (channel < 0 || f.path.includes(channel));
    return this.flows.filter(matches).map((f) => flowInfo(this.fabric, f));
  }

  jobs(): EmulatorJob[] {
    const jobs = new Map<string, { job: EmulatorJob; nodes: Set<number> }>();
    for (const f of this.flows) {
      let entry = jobs.get(f.job);
      if (!entry) {
        entry = {
          job: { name: f.job, nodes: [], state: 'pending', startMs: f.startMs, flows: 0 },
          nodes: new Set(),
        };
        jobs.set(f.job, entry);
      }
      entry.job.flows++;
      entry.job.startMs = Math.min(entry.job.startMs, f.startMs);
      if (f.running) entry.job.state = 'running';
      entry.nodes.add(f.from.index);
      entry.nodes.add(f.dest.index);
    }
    return [...jobs.values()].map(({ job, nodes }) => ({
      ...job,
      nodes: [...nodes].sort((a, b) => a - b).map((i) => (this.fabric.nodes[i] as { name: string }).name),
    }));
  }

  /** Starts the flows due at `now` and drops those ended; true when any did. */
  startAndEnd(now: number): boolean {
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
    if (changed) this.flows = kept;
    return changed;
  }

  /** The earliest flow start or end, or `after` when none comes before it. */
  nextEventMs(after: number): number {
    let next = after;
    for (const flow of this.flows) next = Math.min(next, flow.running ? flow.endMs : flow.startMs);
    return next;
  }

  running(): Flow[] {
    return this.flows.filter((f) => f.running);
  }

  /** Pending flows' rates back to 0; the running flows. */
  runningAfterReset(): Flow[] {
    for (const flow of this.flows) {
      if (!flow.running) {
        flow.rate = 0;
        flow.payload = 0;
      }
    }
    return this.running();
  }

  /** Every flow's static path from new tables; with `keepAdaptive`, AR-moved flows keep theirs while intact. */
  followTables(networks: Networks, linkUp: Uint8Array, keepAdaptive: boolean): void {
    for (const flow of this.flows) {
      let path: Int32Array;
      try {
        const tuple = flowTuple(flow.from.name, flow.dest.name, Number(flow.id.slice(1)));
        path = Int32Array.from(networks.flowPath(flow.from, flow.dest, linkUp, tuple));
      } catch (error) {
        if (!(error instanceof NoRouteError)) throw error;
        continue;
      }
      const adaptiveIntact =
        keepAdaptive && flow.path !== flow.staticPath && flow.path.every((c) => linkUp[c >> 1] === 1);
      flow.staticPath = path;
      if (!adaptiveIntact) flow.path = path;
    }
  }
}
