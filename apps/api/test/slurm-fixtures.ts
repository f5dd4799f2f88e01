import type { Job } from '../src/jobs/job.ts';

/** The jobs of fixtures/slurm/squeue-v0.0.40.json (squeue --json of Slurm 23.11), as fabscope reads them. */
export const SQUEUE_V0_0_40_JOBS: Job[] = [
  {
    id: '1001',
    name: 'openfoam-motorbike',
    user: 'alice',
    state: 'RUNNING',
    nodes: ['nodeA', 'nodeC'],
    startTime: '2026-01-01T08:00:00.000Z',
  },
  {
    id: '1002_3',
    name: 'gromacs',
    user: 'bob',
    state: 'RUNNING',
    nodes: ['nodeB', 'nodeD'],
    startTime: '2026-01-01T09:00:00.000Z',
  },
  { id: '1006', name: 'post-process', user: 'alice', state: 'PENDING', nodes: [], startTime: null },
];
