import { describe, expect, it } from 'vitest';
import type { Job } from '../src/jobs/job.ts';
import { MAX_ESTIMATED_PAIRS_PER_JOB } from '../src/jobs/job-flows.ts';
import { patternPairs } from '../src/jobs/job-pattern.ts';

const job = (pattern?: Job['pattern']): Job => ({
  id: '1',
  name: '1',
  user: null,
  state: 'RUNNING',
  nodes: [],
  startTime: null,
  ...(pattern ? { pattern } : {}),
});
const hosts = (n: number) => Array.from({ length: n }, (_, i) => `n${i + 1}`);

describe('the pairs a job is taken to talk over', () => {
  it('a declared ring: each host to the next, the last to the first', () => {
    expect(patternPairs(job({ name: 'ring' }), hosts(3))).toEqual({
      pairs: [
        ['n1', 'n2'],
        ['n2', 'n3'],
        ['n3', 'n1'],
      ],
      pattern: {
        kind: 'declared',
        name: 'ring',
        pairs: 3,
        statement: expect.stringMatching(/^declared a ring/),
      },
    });
  });

  it('declared pairs keep those of hosts on the fabric only', () => {
    const declared = job({
      name: 'pairs',
      pairs: [
        ['n1', 'n2'],
        ['n2', 'gone'],
      ],
    });
    expect(patternPairs(declared, hosts(2)).pairs).toEqual([['n1', 'n2']]);
  });

  it('all-to-all and nothing declared: every pair while few, a ring both ways beyond, and it says so', () => {
    expect(patternPairs(job({ name: 'all-to-all' }), hosts(4)).pairs).toHaveLength(12);
    const big = patternPairs(job({ name: 'all-to-all' }), hosts(100));
    expect(big.pairs).toHaveLength(200);
    expect(big.pattern.statement).toContain(`at most ${MAX_ESTIMATED_PAIRS_PER_JOB} pairs`);
    expect(patternPairs(job(), hosts(4)).pattern).toMatchObject({
      kind: 'assumed',
      name: 'every pair',
      pairs: 12,
    });
    expect(patternPairs(job(), hosts(100)).pattern).toMatchObject({
      kind: 'assumed',
      name: 'ring (both ways)',
    });
  });
});
