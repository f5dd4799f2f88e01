import type { FlowInfo, JobDetail } from '@fabscope/contracts';
import { compressHostList, naturalCompare } from '@fabscope/contracts/names';
import type { Route } from '../api/types.ts';

/** The job the seed button starts its pairs as: pressing it again finds them running. */
export const SEED_JOB = 'seed';

export interface FlowGroup {
  job: string;
  count: number;
  bytesPerSecond: number;
  /** Distinct from → to pairs: 16 streams of one iperf are one pair. */
  pairs: number;
  flows: FlowInfo[];
}

/** The flow list grouped by job, busiest job first; a group keeps its flows in the API's order. */
export function groupFlowsByJob(
  flows: readonly FlowInfo[],
  /** Every job's flows and bytes/s over the whole list, when `flows` is its first page only. */
  totals?: readonly { job: string; flows: number; bytesPerSecond: number }[] | null,
): FlowGroup[] {
  const groups = new Map<string, FlowGroup>();
  const pairs = new Map<string, Set<string>>();
  for (const f of flows) {
    const job = f.job;
    let group = groups.get(job);
    if (!group) {
      group = { job, count: 0, bytesPerSecond: 0, pairs: 0, flows: [] };
      groups.set(job, group);
      pairs.set(job, new Set());
    }
    group.count++;
    group.bytesPerSecond += f.bytesPerSecond;
    group.flows.push(f);
    pairs.get(job)?.add(`${f.from}\u0000${f.to}`);
  }
  for (const group of groups.values()) group.pairs = pairs.get(group.job)?.size ?? 0;
  // The whole list's counts and rates where known; jobs with no flow on this page still listed.
  for (const total of totals ?? []) {
    const group = groups.get(total.job) ?? {
      job: total.job,
      count: 0,
      bytesPerSecond: 0,
      pairs: 0,
      flows: [],
    };
    // Distinct pairs are known of this page only: not said for a job with flows beyond it.
    if (group.count < total.flows) group.pairs = total.flows;
    group.count = Math.max(group.count, total.flows);
    group.bytesPerSecond = total.bytesPerSecond;
    groups.set(total.job, group);
  }
  return [...groups.values()].sort(
    (a, b) => b.bytesPerSecond - a.bytesPerSecond || b.count - a.count || naturalCompare(a.job, b.job),
  );
}

/** Whether a job has flows in the list (null: not known yet). */
export function jobRunning(
  flows: readonly FlowInfo[] | null,
  job: string,
  /** Every job's totals over the whole list, when `flows` is its first page only. */
  totals?: readonly { job: string; flows: number }[] | null,
): boolean | null {
  if (flows === null) return null;
  if (totals) return totals.some((t) => t.job === job && t.flows > 0);
  return flows.some((f) => f.job === job);
}

/** A job drawn as a route: its links highlighted, its hosts (each rail of a host of several) as the hops. */
export function jobHighlight(detail: JobDetail): Route {
  return {
    from: detail.job.name,
    to: '',
    hops: detail.nodes.filter((n) => n.known).flatMap((n) => (n.rails ?? [n.name]).map((node) => ({ node }))),
    links: detail.links.map((l) => l.id),
    label: `job ${detail.job.name}`,
  };
}

/** A job's host as the panel lists it: `node001 (2 rails)`, `gone (not in this fabric)`. */
export function jobNodeText(node: JobDetail['nodes'][number]): string {
  if (!node.known) return `${node.name} (not in this fabric)`;
  return node.rails && node.rails.length > 1 ? `${node.name} (${node.rails.length} rails)` : node.name;
}

/**
 * A job's hosts as Slurm writes a host list (`host[1-1152]`), those the fabric lacks after them:
 * a 1,152-host job is one short line, each name listed only when asked (jobNodeText).
 */
export function jobHostListText(nodes: readonly JobDetail['nodes'][number][]): string {
  const known = compressHostList(nodes.filter((n) => n.known).map((n) => n.name));
  const missing = compressHostList(nodes.filter((n) => !n.known).map((n) => n.name));
  if (missing === '') return known || '—';
  return `${known ? `${known} · ` : ''}not in this fabric: ${missing}`;
}
