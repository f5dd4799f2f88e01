import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildScenario } from '@fabscope/topology';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { configFromEnv } from '../src/config.ts';
import { CachedJobSource } from '../src/jobs/cached-source.ts';
import { parseJobsFile } from '../src/jobs/file-source.ts';
import { expandHostList, HostListError } from '../src/jobs/hostlist.ts';
import { JobSourceError } from '../src/jobs/job.ts';
import { parseSqueueJson, parseSqueueText } from '../src/jobs/squeue.ts';
import { startApi } from '../src/server.ts';
import { SQUEUE_V0_0_40_JOBS } from './slurm-fixtures.ts';

const fixture = (name: string) => readFileSync(new URL(`fixtures/slurm/${name}`, import.meta.url), 'utf8');

describe('Slurm host lists', () => {
  it('expands ranges with their padding, lists, several groups and plain names', () => {
    expect(expandHostList('node[001-003,040]')).toEqual(['node001', 'node002', 'node003', 'node040']);
    expect(expandHostList('rack[1-2]-n[09-10]')).toEqual([
      'rack1-n09',
      'rack1-n10',
      'rack2-n09',
      'rack2-n10',
    ]);
    expect(expandHostList('login1,gpu[7-8],nodeA')).toEqual(['login1', 'gpu7', 'gpu8', 'nodeA']);
    expect(expandHostList('n[8-11]')).toEqual(['n8', 'n9', 'n10', 'n11']);
    expect(expandHostList('')).toEqual([]);
  });

  it.each(['node[1-', 'node1-3]', 'node[a-c]', 'node[5-3]', 'n[[1]]', 'node[1-2000000]', 'a b'])(
    'refuses %s with a reason',
    (text) => {
      expect(() => expandHostList(text)).toThrow(HostListError);
    },
  );

  // A host list written from known parts expands to exactly the names those parts stand for.
  const group = fc
    .array(
      fc.tuple(
        fc.integer({ min: 0, max: 300 }),
        fc.integer({ min: 0, max: 12 }),
        fc.integer({ min: 1, max: 4 }),
      ),
      { minLength: 1, maxLength: 4 },
    )
    .map((ranges) => ranges.map(([low, span, width]) => ({ low, high: low + span, width })));
  const prefix = fc.stringMatching(/^[a-z][a-z0-9-]{0,6}$/);

  it('expands prefix[ranges] to each number padded to its lower bound (property)', () => {
    fc.assert(
      fc.property(prefix, group, (p, ranges) => {
        const text = `${p}[${ranges.map((r) => `${String(r.low).padStart(r.width, '0')}-${String(r.high).padStart(r.width, '0')}`).join(',')}]`;
        const expected = ranges.flatMap((r) =>
          Array.from(
            { length: r.high - r.low + 1 },
            (_, i) => `${p}${String(r.low + i).padStart(r.width, '0')}`,
          ),
        );
        expect(expandHostList(text)).toEqual(expected);
      }),
    );
  });

  it('a comma list of host lists is the concatenation of their expansions (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(prefix, group), { minLength: 1, maxLength: 4 }), (items) => {
        const texts = items.map(
          ([p, ranges]) => `${p}[${ranges.map((r) => `${r.low}-${r.high}`).join(',')}]`,
        );
        expect(expandHostList(texts.join(','))).toEqual(texts.flatMap((t) => expandHostList(t)));
      }),
    );
  });

  it('two bracket groups expand as their product, the first varying slowest (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 9 }), fc.integer({ min: 1, max: 9 }), (a, b) => {
        const names = expandHostList(`r[1-${a}]n[1-${b}]`);
        expect(names).toHaveLength(a * b);
        expect(names[0]).toBe('r1n1');
        expect(names[b]).toBe(a > 1 ? 'r2n1' : undefined);
        expect(new Set(names).size).toBe(a * b);
      }),
    );
  });
});

describe('squeue parsers', () => {
  it('reads squeue --json of Slurm 23.11 (data_parser v0.0.40)', () => {
    expect(parseSqueueJson(fixture('squeue-v0.0.40.json'))).toEqual(SQUEUE_V0_0_40_JOBS);
  });

  it('reads squeue --json of Slurm 22.05 (v0.0.38: string states, plain times)', () => {
    const [running, pending] = parseSqueueJson(fixture('squeue-v0.0.38.json'));
    expect(running?.nodes).toHaveLength(33);
    expect(running?.nodes.at(-1)).toBe('node040');
    expect(running).toMatchObject({
      id: '42017',
      state: 'RUNNING',
      user: 'carol',
      startTime: '2023-11-14T22:13:20.000Z',
    });
    expect(pending).toMatchObject({ id: '42018', state: 'PENDING', nodes: [], startTime: null });
  });

  it("reads squeue -h -o '%i|%j|%u|%T|%N|%S', names holding the separator included", () => {
    const jobs = parseSqueueText(fixture('squeue-text.txt'));
    expect(jobs.map((j) => [j.id, j.name, j.user, j.state])).toEqual([
      ['1001', 'openfoam-motorbike', 'alice', 'RUNNING'],
      ['1002_3', 'gromacs', 'bob', 'COMPLETING'],
      ['1006', 'post|process', 'alice', 'PENDING'],
      ['42017', 'icon-r2b9', 'carol', 'RUNNING'],
    ]);
    expect(jobs[2]).toMatchObject({ nodes: [], startTime: null });
    expect(jobs[3]?.nodes).toEqual([
      'rack1-node01',
      'rack1-node02',
      'rack2-node01',
      'rack2-node02',
      'login1',
    ]);
    expect(jobs[0]?.startTime).toBe(new Date('2026-01-01T08:00:00').toISOString());
  });

  it.each([
    ['not json', /not JSON/],
    ['{"jobs": 3}', /no "jobs"/],
    ['{"jobs": [{"job_id": 1, "job_state": ["RUNNING"], "nodes": "n[3-1]"}]}', /jobs\[0\].*backwards/],
    ['{"jobs": [{"job_id": 1, "nodes": "n1"}]}', /job_state/],
  ])('refuses squeue --json %s naming the problem', (text, reason) => {
    expect(() => parseSqueueJson(text)).toThrow(reason);
  });

  it('refuses a text line that is not the six fields', () => {
    expect(() => parseSqueueText('1001|name|alice\n')).toThrow(/line 1: expected 6 fields/);
    expect(() => parseSqueueText('1|a|u|RUNNING|n1|yesterday')).toThrow(JobSourceError);
  });
});

describe('jobs file', () => {
  it('takes fabscope’s own shape, host lists or arrays, and squeue --json answers', () => {
    const own = parseJobsFile(
      JSON.stringify({
        jobs: [
          {
            id: 7,
            name: 'a',
            user: 'u',
            state: 'running',
            nodes: 'node[1-2]',
            startTime: '2026-01-01T00:00:00Z',
          },
          { id: 'b', nodes: ['nodeA'] },
        ],
      }),
    );
    expect(own).toEqual([
      {
        id: '7',
        name: 'a',
        user: 'u',
        state: 'RUNNING',
        nodes: ['node1', 'node2'],
        startTime: '2026-01-01T00:00:00.000Z',
      },
      { id: 'b', name: 'b', user: null, state: 'RUNNING', nodes: ['nodeA'], startTime: null },
    ]);
    expect(parseJobsFile(fixture('squeue-v0.0.40.json')).map((j) => j.id)).toEqual([
      '1001',
      '1002_3',
      '1006',
    ]);
    expect(() => parseJobsFile('{"jobs":[{"id":"x","nodes":"a"},{"id":"x","nodes":"b"}]}')).toThrow(/twice/);
    expect(() => parseJobsFile('{"jobs":[{"id":"x","nodes":5}]}')).toThrow(/host list/);
  });
});

describe('FABSCOPE_JOBS', () => {
  it('chooses squeue --json, squeue -o or a jobs file, and checks them at start', () => {
    expect(configFromEnv({ FABSCOPE_JOBS: 'slurm' }).jobs).toEqual({
      kind: 'slurm',
      format: 'json',
      command: 'squeue',
      timeoutMs: 5000,
    });
    expect(
      configFromEnv({
        FABSCOPE_JOBS: 'slurm-text',
        FABSCOPE_SQUEUE: '/opt/slurm/bin/squeue',
        FABSCOPE_SQUEUE_TIMEOUT_MS: '2000',
      }).jobs,
    ).toEqual({ kind: 'slurm', format: 'text', command: '/opt/slurm/bin/squeue', timeoutMs: 2000 });
    const file = new URL('fixtures/slurm/squeue-v0.0.40.json', import.meta.url).pathname;
    expect(configFromEnv({ FABSCOPE_JOBS: `file:${file}` }).jobs).toEqual({ kind: 'file', path: file });
    expect(configFromEnv({}).jobs).toBeUndefined();
    expect(() => configFromEnv({ FABSCOPE_JOBS: 'pbs' })).toThrow(/slurm, slurm-text or file:PATH/);
    expect(() => configFromEnv({ FABSCOPE_JOBS: 'file:/nonexistent/jobs.json' })).toThrow(/does not exist/);
    expect(() => configFromEnv({ FABSCOPE_JOBS: 'slurm', FABSCOPE_SQUEUE_TIMEOUT_MS: '5' })).toThrow(
      /100\.\.60000/,
    );
  });

  it('a jobs file with one bad entry: the other jobs are served, the bad one named with its reason', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'fabscope-jobs-'));
    const file = join(dir, 'jobs.json');
    writeFileSync(
      file,
      JSON.stringify({
        jobs: [
          { id: '1', name: 'good', nodes: 'nodeA,nodeB' },
          { id: '2', name: 'bad', nodes: 'node[1-' },
          { id: '3', name: 'also good', nodes: ['nodeC'] },
          { id: '1', name: 'twice', nodes: 'nodeD' },
        ],
      }),
    );
    const config = configFromEnv({
      PORT: '0',
      FABSCOPE_JOBS: `file:${file}`,
      FABSCOPE_COLLECTOR_URLS: 'http://127.0.0.1:9/metrics',
    });
    const api = await startApi(config, buildScenario('ar-demo'));
    try {
      const res = await fetch(`${api.url}/api/v1/jobs`);
      expect(res.status).toBe(200);
      const body = (await res.json()) as { jobs: { id: string }[]; skipped: unknown };
      expect(body.jobs.map((j) => j.id)).toEqual(['1', '3']);
      expect(body.skipped).toEqual({
        total: 2,
        entries: [
          { entry: `${file} line 1: jobs[1]`, reason: 'unclosed "[" in host list "node[1-"' },
          { entry: `${file} line 1: jobs[3]`, reason: 'id "1" given twice' },
        ],
      });
    } finally {
      await api.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('squeue lines: strict reading names the first bad line; a source skips it and keeps the others', () => {
    const text =
      '1001|a|alice|RUNNING|nodeA|2026-11-25T10:00:00\nbroken line\n1002|b|bob|RUNNING|node[1-|N/A\n1003|c|carol|PENDING||N/A\n';
    expect(() => parseSqueueText(text)).toThrow(/squeue line 2: expected 6 fields/);
    const skipped: { entry: string; reason: string }[] = [];
    expect(parseSqueueText(text, skipped).map((j) => j.id)).toEqual(['1001', '1003']);
    expect(skipped.map((s) => s.entry)).toEqual(['squeue line 2', 'squeue line 3']);
    expect(skipped[1]?.reason).toMatch(/unclosed "\["/);
  });

  it('the API started with a jobs file serves its jobs', async () => {
    const file = new URL('fixtures/slurm/squeue-v0.0.40.json', import.meta.url).pathname;
    const config = configFromEnv({
      PORT: '0',
      FABSCOPE_JOBS: `file:${file}`,
      // Nothing listens there: this test reads jobs, not counters.
      FABSCOPE_COLLECTOR_URLS: 'http://127.0.0.1:9/metrics',
    });
    const api = await startApi(config, buildScenario('ar-demo'));
    try {
      const body = (await (await fetch(`${api.url}/api/v1/jobs`)).json()) as {
        source: string;
        jobs: { id: string }[];
      };
      expect(body.source).toBe('file');
      expect(body.jobs.map((j) => j.id)).toEqual(['1001', '1002_3', '1006']);
    } finally {
      await api.close();
    }
  });
});

describe('CachedJobSource', () => {
  it('asks squeue at most once per 5 s, shares a request on its way, and does not keep failures', async () => {
    let calls = 0;
    let fail = false;
    let nowMs = 0;
    const source = new CachedJobSource(
      {
        kind: 'slurm',
        list: async () => {
          calls++;
          if (fail) throw new JobSourceError('squeue failed');
          return {
            jobs: [
              { id: String(calls), name: 'j', user: null, state: 'RUNNING', nodes: [], startTime: null },
            ],
            skipped: [],
          };
        },
      },
      5000,
      () => nowMs,
    );
    const [a, b] = await Promise.all([source.list(), source.list()]);
    expect(calls).toBe(1);
    expect(a).toBe(b);
    nowMs = 4999;
    expect((await source.list()).jobs[0]?.id).toBe('1');
    nowMs = 5000;
    fail = true;
    await expect(source.list()).rejects.toThrow('squeue failed');
    fail = false;
    expect((await source.list()).jobs[0]?.id).toBe('3');
    expect(calls).toBe(3);
    expect(source.kind).toBe('slurm');
  });
});
