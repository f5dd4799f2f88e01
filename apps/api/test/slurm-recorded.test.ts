import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseSacctJson } from '../src/jobs/sacct.ts';
import { SlurmJobSource } from '../src/jobs/slurm-source.ts';
import { parseSqueueJson } from '../src/jobs/squeue.ts';
import { TimeParamError } from '../src/lib/time-params.ts';
import { reportWindow } from '../src/routes/jobs/report/report-inputs.ts';

// Answers recorded from a real Slurm 22.05.8 (Debian bookworm), not written from its schema: fixtures/slurm/README.md.
const path = (name: string) => new URL(`fixtures/slurm/${name}`, import.meta.url).pathname;
const recorded = (name: string) => readFileSync(path(name), 'utf8');

describe('sacct --json recorded from Slurm 22.05.8 (sacct --json -X -S … -E …)', () => {
  it('is the data_parser dbv0.0.38 answer of Slurm 22.05.8', () => {
    const doc = JSON.parse(recorded('sacct-22.05.8-recorded.json'));
    expect(doc.meta.plugin.type).toBe('openapi/dbv0.0.38');
    expect(doc.meta.Slurm.release).toBe('22.05.8');
  });

  it('reads every finished job: ids of array tasks, states, host lists, start and end', () => {
    const jobs = parseSacctJson(recorded('sacct-22.05.8-recorded.json'));
    expect(
      jobs.map((j) => [j.id, j.name, j.user, j.state, j.nodes.join(','), j.startTime, j.endTime]),
    ).toEqual([
      ['1', 'wrap', 'root', 'COMPLETED', 'node001', '2026-11-29T17:48:27.000Z', '2026-11-29T17:48:29.000Z'],
      [
        '2',
        'cfd-motorbike',
        'root',
        'COMPLETED',
        'node001,node002',
        '2026-11-29T17:48:30.000Z',
        '2026-11-29T17:48:33.000Z',
      ],
      ['3', 'exits-3', 'root', 'FAILED', 'node001', '2026-11-29T17:48:34.000Z', '2026-11-29T17:48:34.000Z'],
      // Cancelled while pending: sacct prints its cancel time as start too; it never started.
      ['4', 'never-ran', 'root', 'CANCELLED', '', null, '2026-11-29T17:48:28.000Z'],
      // Job ids 5 and 6 are tasks 2 and 1 of array job 5.
      [
        '5_2',
        'sweep',
        'root',
        'COMPLETED',
        'node001',
        '2026-11-29T17:48:37.000Z',
        '2026-11-29T17:48:39.000Z',
      ],
      [
        '5_1',
        'sweep',
        'root',
        'COMPLETED',
        'node002',
        '2026-11-29T17:48:34.000Z',
        '2026-11-29T17:48:36.000Z',
      ],
      [
        '7',
        'cancelled-running',
        'root',
        'CANCELLED',
        'node001',
        '2026-11-29T17:48:43.000Z',
        '2026-11-29T17:48:49.000Z',
      ],
      ['8', 'too-long', 'root', 'TIMEOUT', 'node002', '2026-11-29T17:48:43.000Z', '2026-11-29T17:49:46.000Z'],
    ]);
  });

  it('a job that never ran has no window of its own: the report asks for one instead of an empty run', () => {
    const neverRan = parseSacctJson(recorded('sacct-22.05.8-recorded.json')).find((j) => j.id === '4');
    if (neverRan === undefined) throw new Error('job 4 missing from the recording');
    const now = Date.parse('2026-11-29T18:00:00Z');
    expect(() => reportWindow(neverRan, {}, now)).toThrow(
      new TimeParamError('job "4" has no start time (state CANCELLED): give from'),
    );
  });

  it("SlurmJobSource.finished reads sacct's recorded answers to `--json -X -j ID`, an unknown id none", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'fabscope-sacct-recorded-'));
    const squeue = join(dir, 'squeue');
    const sacct = join(dir, 'sacct');
    writeFileSync(squeue, '#!/bin/sh\nexit 1\n');
    // Replays what sacct printed for each id; for 999 sacct printed `jobs: []` and a "Nothing found" error.
    writeFileSync(
      sacct,
      [
        '#!/bin/sh',
        '[ "$1 $2 $3" = "--json -X -j" ] || exit 2',
        `[ "$4" = 2 ] && exec cat '${path('sacct-22.05.8-recorded-j2.json')}'`,
        `[ "$4" = 5_1 ] && exec cat '${path('sacct-22.05.8-recorded-j5_1.json')}'`,
        `exec cat '${path('sacct-22.05.8-recorded-nothing.json')}'`,
        '',
      ].join('\n'),
    );
    chmodSync(squeue, 0o755);
    chmodSync(sacct, 0o755);
    try {
      const source = new SlurmJobSource({ command: squeue });
      expect(await source.finished('2')).toEqual({
        id: '2',
        name: 'cfd-motorbike',
        user: 'root',
        state: 'COMPLETED',
        nodes: ['node001', 'node002'],
        startTime: '2026-11-29T17:48:30.000Z',
        endTime: '2026-11-29T17:48:33.000Z',
      });
      expect(await source.finished('5_1')).toMatchObject({ id: '5_1', nodes: ['node002'] });
      expect(await source.finished('999')).toBeNull();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('squeue --json recorded from Slurm 22.05.8', () => {
  it('reads running, pending and a pending array job', () => {
    const skipped: { entry: string; reason: string }[] = [];
    const jobs = parseSqueueJson(recorded('squeue-22.05.8-recorded.json'), skipped);
    expect(skipped).toEqual([]);
    expect(jobs.map((j) => [j.id, j.name, j.state, j.nodes.join(',')])).toEqual([
      ['1', 'wrap', 'RUNNING', 'node001'],
      ['2', 'cfd-motorbike', 'PENDING', ''],
      ['3', 'exits-3', 'PENDING', ''],
      ['4', 'never-ran', 'PENDING', ''],
      ['5', 'sweep', 'PENDING', ''],
    ]);
    expect(jobs[0]).toMatchObject({ user: 'root', startTime: '2026-11-29T17:48:27.000Z' });
    expect(jobs[1]?.startTime).toBeNull();
  });
});
