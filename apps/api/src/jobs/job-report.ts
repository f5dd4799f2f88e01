import type { JobDetail, LinkFlows } from '@fabscope/contracts';
import { naturalCompare } from '@fabscope/contracts/names';
import type { LinkIndex } from '../lib/link-index.ts';
import type { JobFlow } from './job-flows.ts';
import { type DirectionUser, usersByDirection } from './report/direction-users.ts';

/** One link direction a job's traffic crosses, and how much of the traffic on it is the job's. */
export type JobLinkShare = Omit<JobDetail['links'][number], 'kind'>;

/**
 * The links a job's flows cross, busiest first (by the job's bytes/s, then by its flows, then by id in natural order),
 * with its share of each as `usersByDirection` (the one owner of that figure) gives it.
 */
export function jobLinks(flows: readonly JobFlow[], jobId: string): JobLinkShare[] {
  const ids = new Set<string>();
  for (const f of flows) if (f.job === jobId) for (const id of f.path) ids.add(id);
  const rows: JobLinkShare[] = [];
  for (const [id, users] of usersByDirection(ids, [flows])) {
    const own = users.find((u) => u.job === jobId) as DirectionUser;
    let totalFlows = 0;
    let totalBytes = 0;
    for (const u of users) {
      totalFlows += u.flows;
      totalBytes += u.bytesPerSecond ?? 0;
    }
    const estimated = own.bytesPerSecond === null;
    rows.push({
      id,
      flows: own.flows,
      totalFlows,
      jobBytesPerSecond: own.bytesPerSecond,
      totalBytesPerSecond: estimated ? null : totalBytes,
      share: own.share,
      estimated,
    });
  }
  return rows.sort(
    (a, b) =>
      (b.jobBytesPerSecond ?? 0) - (a.jobBytesPerSecond ?? 0) ||
      b.flows - a.flows ||
      naturalCompare(a.id, b.id),
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
        naturalCompare(a.job ?? '', b.job ?? '') ||
        naturalCompare(a.from, b.from) ||
        naturalCompare(a.to, b.to),
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
      (a, b) =>
        (b.bytesPerSecond ?? 0) - (a.bytesPerSecond ?? 0) ||
        b.flows - a.flows ||
        naturalCompare(a.job ?? '', b.job ?? ''),
    ),
  };
}

/** The kind of every link direction of a drawing, by id. */
export function linkKinds(index: LinkIndex): Pick<ReadonlyMap<string, string>, 'get' | 'has'> {
  return { get: (id) => index.channelById.get(id)?.fixed.kind, has: (id) => index.channelById.has(id) };
}
