import type { Job } from '@fabscope/contracts';

/** "#1002 · alice · 2 of its directions, 5 flows": how a job meets an alarm, in a line. */
export function affectedText(job: Pick<Job, 'id' | 'name' | 'user' | 'crossing'>): string {
  const parts: string[] = [];
  if (job.id !== job.name) parts.push(`#${job.id}`);
  if (job.user) parts.push(job.user);
  const c = job.crossing;
  if (c) {
    parts.push(
      `${c.directions} ${c.directions === 1 ? 'direction' : 'directions'}, ${c.flows} ${c.flows === 1 ? 'flow' : 'flows'}`,
    );
  }
  return parts.join(' · ');
}
