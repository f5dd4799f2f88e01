import { type JobReport, REPORT_MAX_ROWS } from '@fabscope/contracts';
import { naturalCompare } from '@fabscope/contracts/names';
import type { DirectionUser } from './direction-users.ts';

type Blame = JobReport['culprits'][number];

/** A direction as blame reads it: how long the job was behind it, and who used it. */
export interface CongestedDirection {
  id: string;
  behindSeconds: number;
  users: readonly DirectionUser[];
}

/**
 * Other jobs ranked by the share of `jobId`'s window they account for behind its congested directions (time behind ×
 * their share of the traffic there): culprits. Victims the other way round: other jobs on those directions, by time
 * behind × `jobId`'s share. Only jobs on a congested direction of the job are ever named.
 */
export function blame(
  jobId: string,
  directions: readonly CongestedDirection[],
  windowSeconds: number,
): { culprits: Blame[]; victims: Blame[] } {
  const culprits = new Map<string, Blame>();
  const victims = new Map<string, Blame>();
  const keep = (
    into: Map<string, Blame>,
    job: string,
    direction: string,
    share: number,
    behindShare: number,
  ) => {
    const row = into.get(job);
    if (!row) {
      into.set(job, { job, direction, share, behindShare, directions: 1 });
      return;
    }
    row.directions++;
    if (behindShare > row.behindShare) Object.assign(row, { direction, share, behindShare });
  };
  for (const d of directions) {
    if (!(d.behindSeconds > 0) || !(windowSeconds > 0)) continue;
    const behind = Math.min(1, d.behindSeconds / windowSeconds);
    const own = d.users.find((u) => u.job === jobId)?.share ?? 0;
    for (const u of d.users) {
      if (u.job === null || u.job === jobId || !(u.share > 0)) continue;
      keep(culprits, u.job, d.id, u.share, behind * u.share);
      if (own > 0) keep(victims, u.job, d.id, own, behind * own);
    }
  }
  const ranked = (rows: Map<string, Blame>) =>
    [...rows.values()]
      .sort((a, b) => b.behindShare - a.behindShare || b.share - a.share || naturalCompare(a.job, b.job))
      .slice(0, REPORT_MAX_ROWS);
  return { culprits: ranked(culprits), victims: ranked(victims) };
}
