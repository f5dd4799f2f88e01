import type { FlowInfo, JobDetail } from '@fabscope/contracts';
import { describe, expect, it } from 'vitest';
import { groupFlowsByJob, jobHighlight, jobHostListText, jobNodeText, jobRunning } from './jobs.ts';

const flow = (id: string, from: string, to: string, bytesPerSecond: number, job: string): FlowInfo => ({
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
    // A first page only: the whole list's totals say, not the page (its flows may all be another job's).
    const page = [flow('f1', 'a', 'b', 1, 'other')];
    expect(
      jobRunning(page, 'seed', [
        { job: 'other', flows: 500 },
        { job: 'seed', flows: 2 },
      ]),
    ).toBe(true);
    expect(jobRunning([flow('f1', 'a', 'b', 1, 'seed')], 'seed', [{ job: 'seed', flows: 0 }])).toBe(false);
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
        { name: 'node001', known: true, rails: ['node001/mlx5_0', 'node001/mlx5_1'] },
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
      hops: [{ node: 'nodeA' }, { node: 'node001/mlx5_0' }, { node: 'node001/mlx5_1' }],
      links: ['nodeA/1->edge1/1'],
      label: 'job cfd',
    });
    expect(detail.nodes.map(jobNodeText)).toEqual([
      'nodeA',
      'gone (not in this fabric)',
      'node001 (2 rails)',
    ]);
    expect(jobHostListText(detail.nodes)).toBe('node001,nodeA · not in this fabric: gone');
  });

  it('writes a 1,152-host job as Slurm does: host[1-1152]', () => {
    const nodes = Array.from({ length: 1152 }, (_, i) => ({ name: `host${i + 1}`, known: true }));
    expect(jobHostListText(nodes)).toBe('host[1-1152]');
    expect(jobHostListText([])).toBe('—');
  });
});

describe('groupFlowsByJob with the whole list’s totals (the API pages the flows)', () => {
  const flow = (id: string, job: string, from: string, to: string): FlowInfo =>
    ({ id, job, from, to, bytesPerSecond: 1e9, path: [] }) as unknown as FlowInfo;

  it('counts every flow of a job and its rate, not only those of the first page', () => {
    const page = [
      flow('f1', 'perm', 'h1', 'h2'),
      flow('f2', 'perm', 'h2', 'h3'),
      flow('f3', 'seed', 'a', 'c'),
    ];
    const groups = groupFlowsByJob(page, [
      { job: 'perm', flows: 27_648, bytesPerSecond: 3e14 },
      { job: 'seed', flows: 1, bytesPerSecond: 1e9 },
      { job: 'late', flows: 4, bytesPerSecond: 2e9 },
    ]);
    expect(groups.map((g) => [g.job, g.count, g.bytesPerSecond, g.flows.length])).toEqual([
      ['perm', 27_648, 3e14, 2],
      ['late', 4, 2e9, 0],
      ['seed', 1, 1e9, 1],
    ]);
    // Pairs are known of the page only: not claimed for a job whose flows go beyond it.
    expect(groups[0]?.pairs).toBe(27_648);
  });
});
