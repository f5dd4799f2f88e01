import { describe, expect, it } from 'vitest';
import type { Flow, JobDetail } from '../api/types.ts';
import { groupFlowsByJob, jobHighlight, jobRunning } from './jobs.ts';

const flow = (id: string, from: string, to: string, bytesPerSecond: number, job: string): Flow => ({
  id,
  from,
  to,
  bytesPerSecond,
  path: [],
  pattern: 'pairs',
  job,
  transport: 'rdma',
  messageBytes: null,
  state: 'running',
  startMs: 0,
  endMs: null,
});

describe('jobs in the dashboard', () => {
  it('groups 16 iperf streams as one job of one pair, busiest job first', () => {
    const flows = [
      flow('f1', 'nodeA', 'nodeC', 5e9, 'seed'),
      flow('f2', 'nodeB', 'nodeD', 5e9, 'seed'),
      ...Array.from({ length: 16 }, (_, i) => flow(`i${i}`, 'nodeA', 'nodeB', 1e8, 'iperf-2')),
      flow('idle', 'nodeC', 'nodeA', 0, 'pairs-3'),
    ];
    const groups = groupFlowsByJob(flows);
    expect(groups.map((g) => [g.job, g.count, g.pairs, g.bytesPerSecond])).toEqual([
      ['seed', 2, 2, 10e9],
      ['iperf-2', 16, 1, 16e8],
      ['pairs-3', 1, 1, 0],
    ]);
    expect(groups[1]?.flows.map((f) => f.id)).toEqual(Array.from({ length: 16 }, (_, i) => `i${i}`));
  });

  it('knows whether a job runs, and not before the flows are read', () => {
    expect(jobRunning(null, 'seed')).toBeNull();
    expect(jobRunning([flow('f1', 'a', 'b', 1, 'seed')], 'seed')).toBe(true);
    expect(jobRunning([flow('f1', 'a', 'b', 1, 'other')], 'seed')).toBe(false);
  });

  it('draws a job as a highlight of its links and known hosts', () => {
    const detail: JobDetail = {
      job: {
        id: '7',
        name: 'cfd',
        user: 'alice',
        state: 'RUNNING',
        nodes: ['nodeA', 'gone'],
        startTime: null,
      },
      nodes: [
        { name: 'nodeA', known: true },
        { name: 'gone', known: false },
      ],
      estimated: true,
      flows: 0,
      links: [
        {
          id: 'nodeA/1->edge1/1',
          kind: 'host',
          flows: 1,
          totalFlows: 1,
          jobBytesPerSecond: null,
          totalBytesPerSecond: null,
          share: 1,
          estimated: true,
        },
      ],
      contention: null,
    };
    expect(jobHighlight(detail)).toEqual({
      from: 'cfd',
      to: '',
      hops: [{ node: 'nodeA' }],
      links: ['nodeA/1->edge1/1'],
      label: 'job cfd',
    });
  });
});
