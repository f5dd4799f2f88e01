import type { JobDetail, LinkFlows } from '@fabscope/contracts';
import type { LinkIndex } from '../lib/link-index.ts';
import type { JobFlow } from './job-flows.ts';

/** One link direction a job's traffic crosses, and how much of the traffic on it is the job's. */
export type JobLinkShare = Omit<JobDetail['links'][number], 'kind'>;

/** The links a job's flows cross, busiest first (by the job's bytes/s, then by its flows). */
export function jobLinks(flows: readonly JobFlow[], jobId: string): JobLinkShare[] {
  const rows = new Map<string, JobLinkShare>();
  for (const f of flows) {
    if (f.job !== jobId) continue;
    for (const id of f.path) {
      let row = rows.get(id);
      if (!row) {
        row = {
          id,
          flows: 0,
          totalFlows: 0,
          jobBytesPerSecond: f.estimated ? null : 0,
          totalBytesPerSecond: f.estimated ? null : 0,
          share: null,
          estimated: f.estimated,
        };
        rows.set(id, row);
      }
      row.flows++;
      if (row.jobBytesPerSecond !== null && f.bytesPerSecond !== null)
        row.jobBytesPerSecond += f.bytesPerSecond;
    }
  }
  for (const f of flows) {
    for (const id of f.path) {
      const row = rows.get(id);
      if (!row) continue;
      row.totalFlows++;
      if (row.totalBytesPerSecond !== null && f.bytesPerSecond !== null)
        row.totalBytesPerSecond += f.bytesPerSecond;
    }
  }
  for (const row of rows.values()) {
    if (row.estimated) row.share = row.flows / row.totalFlows;
    else if (row.totalBytesPerSecond && row.jobBytesPerSecond !== null)
      row.share = row.jobBytesPerSecond / row.totalBytesPerSecond;
  }
  return [...rows.values()].sort(
    (a, b) =>
      (b.jobBytesPerSecond ?? 0) - (a.jobBytesPerSecond ?? 0) || b.flows - a.flows || (a.id < b.id ? -1 : 1),
  );
}

/** A job's part of the traffic on one link direction. */
type LinkJobShare = LinkFlows['jobs'][number];

/** The flows crossing a link direction, fastest first, and the jobs they belong to. */
export function flowsOnLink(
  flows: readonly JobFlow[],
  linkId: string,
): { flows: JobFlow[]; jobs: LinkJobShare[] } {
  const crossing = flows
    .filter((f) => f.path.includes(linkId))
    .sort(
      (a, b) =>
        (b.bytesPerSecond ?? 0) - (a.bytesPerSecond ?? 0) ||
        (a.job ?? '').localeCompare(b.job ?? '') ||
        a.from.localeCompare(b.from) ||
        a.to.localeCompare(b.to),
    );
  const jobs = new Map<string | null, LinkJobShare>();
  for (const f of crossing) {
    let share = jobs.get(f.job);
    if (!share) {
      share = { job: f.job, flows: 0, bytesPerSecond: f.estimated ? null : 0 };
      jobs.set(f.job, share);
    }
    share.flows++;
    if (share.bytesPerSecond !== null && f.bytesPerSecond !== null) share.bytesPerSecond += f.bytesPerSecond;
  }
  return {
    flows: crossing,
    jobs: [...jobs.values()].sort(
      (a, b) => (b.bytesPerSecond ?? 0) - (a.bytesPerSecond ?? 0) || b.flows - a.flows,
    ),
  };
}

/** The kind of every link direction of a drawing, by id. */
export function linkKinds(index: LinkIndex): Pick<ReadonlyMap<string, string>, 'get' | 'has'> {
  return { get: (id) => index.channelById.get(id)?.fixed.kind, has: (id) => index.channelById.has(id) };
}
