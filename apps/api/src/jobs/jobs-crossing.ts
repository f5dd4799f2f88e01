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

/** Flows by the directions they cross, built once for many questions: an alarm's members read only their flows. */
export class FlowsByDirection {
  private readonly byDirection = new Map<string, number[]>();

  constructor(readonly flows: readonly JobFlow[]) {
    flows.forEach((f, i) => {
      for (const id of f.path) {
        const list = this.byDirection.get(id);
        if (!list) this.byDirection.set(id, [i]);
        else if (list[list.length - 1] !== i) list.push(i);
      }
    });
  }

  /** Positions in `flows` of the flows crossing `id`, ascending, each once. */
  crossing(id: string): readonly number[] {
    return this.byDirection.get(id) ?? [];
  }
}

/**
 * The jobs whose flows cross any of `directions`, most directions first, then most flows, then by id:
 * "jobs affected" by an alarm. Traffic of no job is left out (it has no page to open).
 */
export function jobsCrossing(
  flows: readonly JobFlow[] | FlowsByDirection,
  directions: Iterable<string>,
): JobCrossing[] {
  const index = flows instanceof FlowsByDirection ? flows : new FlowsByDirection(flows);
  const byJob = new Map<string, { directions: Set<string>; flows: number }>();
  const counted = new Set<number>();
  for (const id of new Set(directions)) {
    for (const i of index.crossing(id)) {
      const job = (index.flows[i] as JobFlow).job;
      if (job === null) continue;
      let row = byJob.get(job);
      if (!row) {
        row = { directions: new Set(), flows: 0 };
        byJob.set(job, row);
      }
      row.directions.add(id);
      if (!counted.has(i)) {
        counted.add(i);
        row.flows++;
      }
    }
  }
  return [...byJob]
    .map(([job, row]) => ({ job, directions: row.directions.size, flows: row.flows }))
    .sort((a, b) => b.directions - a.directions || b.flows - a.flows || naturalCompare(a.job, b.job));
}
