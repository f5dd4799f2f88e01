import type { JobReport } from '@fabscope/contracts';
import type { Job } from './job.ts';

/** Most node pairs estimated per job: every ordered pair while under this, a ring both ways beyond. */
export const MAX_ESTIMATED_PAIRS_PER_JOB = 4160;

/** The node pairs a job is assumed to exchange traffic between. */
export function estimatedPairs(hosts: readonly string[]): [string, string][] {
  const n = hosts.length;
  const pairs: [string, string][] = [];
  if (n < 2) return pairs;
  if (n * (n - 1) <= MAX_ESTIMATED_PAIRS_PER_JOB) {
    for (const a of hosts) for (const b of hosts) if (a !== b) pairs.push([a, b]);
    return pairs;
  }
  for (let i = 0; i < n; i++) {
    pairs.push([hosts[i] as string, hosts[(i + 1) % n] as string]);
    pairs.push([hosts[(i + 1) % n] as string, hosts[i] as string]);
  }
  return pairs;
}

/** The host pairs a job is taken to talk over when none of its traffic is measured, and how that is said. */
export function patternPairs(
  job: Job,
  hosts: readonly string[],
): { pairs: [string, string][]; pattern: JobReport['pattern'] } {
  const declared = job.pattern;
  const n = hosts.length;
  if (declared?.name === 'ring') {
    const pairs: [string, string][] = n < 2 ? [] : hosts.map((h, i) => [h, hosts[(i + 1) % n] as string]);
    return said('declared', 'ring', pairs, 'declared a ring in the jobs file: each host to the next');
  }
  if (declared?.name === 'pairs') {
    const known = new Set(hosts);
    const pairs = (declared.pairs ?? []).filter(([a, b]) => known.has(a) && known.has(b));
    return said('declared', 'pairs', pairs, 'declared pairs in the jobs file');
  }
  const every = n * (n - 1) <= MAX_ESTIMATED_PAIRS_PER_JOB;
  const pairs = estimatedPairs(hosts);
  if (declared?.name === 'all-to-all')
    return every
      ? said('declared', 'all-to-all', pairs, 'declared all-to-all in the jobs file: every pair of its hosts')
      : said(
          'declared',
          'all-to-all',
          pairs,
          `declared all-to-all in the jobs file; with ${n} hosts, its routes are those of a ring both ways (at most ${MAX_ESTIMATED_PAIRS_PER_JOB} pairs are traced)`,
        );
  const name = every ? 'every pair' : 'ring (both ways)';
  return said(
    'assumed',
    name,
    pairs,
    `no traffic of the job is measured nor declared: assumed ${name} of its hosts`,
  );
}

function said(
  kind: JobReport['pattern']['kind'],
  name: string,
  pairs: [string, string][],
  statement: string,
): { pairs: [string, string][]; pattern: JobReport['pattern'] } {
  return { pairs, pattern: { kind, name, pairs: pairs.length, statement } };
}
