import type { LinkFlow } from '@fabscope/contracts';
import {
  channelOf,
  type Fabric,
  type FabricNode,
  type ForwardingTables,
  fabricGraph,
  nodesNamedIfKnown,
  railPairs,
  traceChannels,
} from '@fabscope/topology';
import type { EmulatorClient } from '../emulator-client.ts';
import type { LinkIndex } from '../lib/link-index.ts';
import { byName } from './emulator-source.ts';
import { isRunning, type Job } from './job.ts';
import { patternPairs } from './job-pattern.ts';

/** A flow attributed to a job, on the path it takes (live) or would take (static, estimated). */
export type JobFlow = LinkFlow;

export { estimatedPairs, MAX_ESTIMATED_PAIRS_PER_JOB } from './job-pattern.ts';

/** The adapters a host name of a job means: every rail of a host (model/resolve-node.ts), never a switch. */
export function railsOf(fabric: Fabric, host: string): readonly FabricNode[] {
  return nodesNamedIfKnown(fabric, host).filter((n) => n.type !== 'switch');
}

/** Host pairs as adapter pairs: one per rail, the same device paired (railPairs). */
export function adapterPairs(
  fabric: Fabric,
  pairs: readonly (readonly [string, string])[],
): [FabricNode, FabricNode][] {
  const out: [FabricNode, FabricNode][] = [];
  for (const [from, to] of pairs) {
    for (const pair of railPairs(fabric, railsOf(fabric, from), railsOf(fabric, to))) {
      if (pair[0] !== pair[1]) out.push(pair);
    }
  }
  return out;
}

/**
 * Static routes of host pairs (each rail's) as link-direction ids; unroutable pairs are left out. With the fabric's
 * LinkIndex, ids are its strings rather than new ones per hop: tens of thousands of routes share them.
 */
export function staticPaths(
  fabric: Fabric,
  tables: ForwardingTables,
  pairs: readonly [string, string][],
  index?: Pick<LinkIndex, 'fabric' | 'channels'>,
): { from: string; to: string; path: string[] }[] {
  const g = fabricGraph(fabric);
  const out: { from: string; to: string; path: string[] }[] = [];
  const channels: number[] = [];
  const ids = index?.fabric === fabric ? index.channels : undefined;
  const idOf = (c: number) => ids?.[c]?.fixed.id ?? channelOf(fabric, c).id;
  for (const [a, b] of adapterPairs(fabric, pairs)) {
    channels.length = 0;
    if (traceChannels(fabric, g, tables, a.index, b.index, channels) !== undefined) continue;
    out.push({ from: a.name, to: b.name, path: channels.map(idOf) });
  }
  return out;
}

/** The hosts of a job this fabric knows, in name order (host lists may name nodes of other fabrics). */
export function knownHosts(fabric: Fabric, job: Job): string[] {
  return job.nodes.filter((n) => railsOf(fabric, n).length > 0).sort(byName);
}

/** Which flows to return: those crossing a link direction, or those of one job. */
export interface FlowSelection {
  link?: string;
  job?: string;
}

/** The fabric and the tables flows are routed on. */
export interface RoutedFabric {
  readonly fabric: Fabric;
  readonly tables: ForwardingTables;
  /** The fabric's direction ids, when at hand (staticPaths). */
  readonly linkIndex?: Pick<LinkIndex, 'fabric' | 'channels'>;
}

/**
 * The flows on the fabric now: the emulator's on their current paths with their rates; with
 * `estimate`, running jobs without live flows routed on the static tables and marked estimated.
 */
export async function currentFlows(
  routed: RoutedFabric,
  emulator: EmulatorClient | null,
  jobs: () => Promise<Job[]>,
  options: { estimate: boolean } & FlowSelection,
): Promise<JobFlow[]> {
  const out: JobFlow[] = [];
  const { link, job: only } = options;
  if (emulator) {
    const filter: FlowSelection = {};
    if (link !== undefined) filter.link = link;
    if (only !== undefined) filter.job = only;
    const { flows } = await emulator.listFlows(filter);
    for (const f of flows) {
      out.push({
        id: f.id,
        from: f.from,
        to: f.to,
        job: f.job ?? null,
        bytesPerSecond: f.state === 'pending' ? 0 : f.bytesPerSecond,
        path: f.path,
        estimated: false,
        ...(f.victimOf === undefined ? {} : { victimOf: f.victimOf }),
      });
    }
  }
  if (!options.estimate) return out;
  const live = new Set(out.map((f) => f.job));
  for (const job of (await jobs()).filter(isRunning)) {
    if (live.has(job.id) || (only !== undefined && job.id !== only)) continue;
    for (const f of estimatedFlows(routed, job)) if (link === undefined || f.path.includes(link)) out.push(f);
  }
  return out;
}

/** Estimated flows per tables and job allocation: a job's routes are traced once, not per request. */
const estimates = new WeakMap<ForwardingTables, Map<string, JobFlow[]>>();
const MAX_CACHED_JOBS = 10_000;

export function estimatedFlows(sources: RoutedFabric, job: Job): JobFlow[] {
  let byJob = estimates.get(sources.tables);
  if (!byJob) {
    byJob = new Map();
    estimates.set(sources.tables, byJob);
  }
  const key = `${job.id}\u0000${job.nodes.join(',')}\u0000${JSON.stringify(job.pattern ?? null)}`;
  let flows = byJob.get(key);
  if (!flows) {
    const hosts = knownHosts(sources.fabric, job);
    // A declared pattern (jobs file) is the pairs it talks over; else every pair, or a ring beyond a size.
    const { pairs } = patternPairs(job, hosts);
    flows = staticPaths(sources.fabric, sources.tables, pairs, sources.linkIndex).map(
      ({ from, to, path }): JobFlow => ({
        from,
        to,
        job: job.id,
        bytesPerSecond: null,
        path,
        estimated: true,
      }),
    );
    if (byJob.size >= MAX_CACHED_JOBS) byJob.clear();
    byJob.set(key, flows);
  }
  return flows;
}
