import { naturalCompare } from '@fabscope/contracts/names';
import type { JobFlow } from './job-flows.ts';

/** How one job's traffic meets a set of link directions (an alarm's). */
export interface JobCrossing {
  job: string;
  /** The directions of the set its flows cross. */
  directions: number;
  /** Its flows crossing one of them, each flow once. */
  flows: number;
}

/**
 * The jobs whose flows cross any of `directions`, most directions first, then most flows, then by id:
 * "jobs affected" by an alarm. Traffic of no job is left out (it has no page to open).
 */
export function jobsCrossing(flows: readonly JobFlow[], directions: Iterable<string>): JobCrossing[] {
  const wanted = new Set(directions);
  const byJob = new Map<string, { directions: Set<string>; flows: number }>();
  for (const f of flows) {
    if (f.job === null) continue;
    let crossed = false;
    for (const id of f.path) {
      if (!wanted.has(id)) continue;
      let row = byJob.get(f.job);
      if (!row) {
        row = { directions: new Set(), flows: 0 };
        byJob.set(f.job, row);
      }
      row.directions.add(id);
      crossed = true;
    }
    if (crossed) (byJob.get(f.job) as { flows: number }).flows++;
  }
  return [...byJob]
    .map(([job, row]) => ({ job, directions: row.directions.size, flows: row.flows }))
    .sort((a, b) => b.directions - a.directions || b.flows - a.flows || naturalCompare(a.job, b.job));
}
