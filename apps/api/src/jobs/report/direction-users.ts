import { naturalCompare } from '@fabscope/contracts/names';
import type { JobFlow } from '../job-flows.ts';

/** One job's part of the traffic on a direction. */
export interface DirectionUser {
  job: string | null;
  flows: number;
  /** bytes/s; null when any flow on the direction is estimated (then every share counts flows). */
  bytesPerSecond: number | null;
  share: number;
}

/**
 * Every job's share of each of `ids` from the flows crossing them, in one pass over the flows: the one owner of a job's
 * share of a direction (`/jobs/{id}` and the report both read it). Bytes when every flow on the direction is measured;
 * flows when one is estimated, since an estimated flow has no rate to weigh against a measured one.
 */
export function usersByDirection(
  ids: ReadonlySet<string>,
  groups: readonly (readonly JobFlow[])[],
): Map<string, DirectionUser[]> {
  const rows = new Map<string, Map<string | null, DirectionUser>>();
  const estimated = new Set<string>();
  for (const flows of groups) {
    for (const f of flows) {
      for (const id of f.path) {
        if (!ids.has(id)) continue;
        let users = rows.get(id);
        if (!users) {
          users = new Map();
          rows.set(id, users);
        }
        let u = users.get(f.job);
        if (!u) {
          u = { job: f.job, flows: 0, bytesPerSecond: 0, share: 0 };
          users.set(f.job, u);
        }
        u.flows++;
        if (f.estimated || f.bytesPerSecond === null) estimated.add(id);
        else if (u.bytesPerSecond !== null) u.bytesPerSecond += f.bytesPerSecond;
      }
    }
  }
  const out = new Map<string, DirectionUser[]>();
  for (const [id, users] of rows) out.set(id, sharesOf([...users.values()], estimated.has(id)));
  return out;
}

/** Each user's share, largest first, ties by job in natural order. */
function sharesOf(list: DirectionUser[], estimated: boolean): DirectionUser[] {
  let bytes = 0;
  let count = 0;
  for (const u of list) {
    bytes += u.bytesPerSecond ?? 0;
    count += u.flows;
  }
  // No byte moved (every flow pending or stopped): the flows still say who routes over it.
  const byFlows = estimated || bytes === 0;
  for (const u of list) {
    if (estimated) u.bytesPerSecond = null;
    u.share = byFlows ? u.flows / count : (u.bytesPerSecond as number) / bytes;
  }
  return list.sort((a, b) => b.share - a.share || naturalCompare(a.job ?? '', b.job ?? ''));
}
