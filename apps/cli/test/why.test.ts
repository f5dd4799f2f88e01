import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { JobReport } from '@fabscope/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderJobReport } from '../src/commands/why.ts';
import { runCli } from './run-cli.ts';

const ISL = 'edge1/4->core2/1';
const stats = (mean: number, p95: number, max: number) => ({
  mean,
  p95,
  max,
  secondsAbove: [{ threshold: 0.95, seconds: 60 }],
});

/** A report as the API writes it for job 1001 of the jobs-file test (job-report-api.test.ts); typed by the contract. */
const REPORT: JobReport = {
  job: {
    id: '1001',
    name: 'cfd',
    user: 'alice',
    state: 'COMPLETED',
    startTime: '2026-01-01T08:00:10.000Z',
    endTime: '2026-01-01T08:01:40.000Z',
    hosts: 3,
    hostsOnFabric: 2,
  },
  window: { from: '2026-01-01T08:00:10.000Z', to: '2026-01-01T08:01:40.000Z', stepSeconds: 1, asked: false },
  pattern: {
    kind: 'assumed',
    name: 'every pair',
    pairs: 2,
    statement: 'assumed to talk over every pair of its hosts',
  },
  routes: {
    source: 'computed',
    adaptiveRouting: { state: 'unavailable', detail: 'upstream OpenSM has no adaptive routing' },
    total: 2,
    listed: [{ from: 'nodeA', to: 'nodeC', path: [ISL] }],
    omitted: 1,
  },
  directions: [
    {
      id: ISL,
      kind: 'isl',
      jobFlows: 1,
      jobShare: 0.5,
      utilization: stats(0.7, 0.98, 0.98),
      transmitWait: stats(0.01, 0.02, 0.03),
      knownSeconds: 90,
      behindSeconds: 60,
      errors: { raised: 0, erroredSeconds: 0 },
      state: { flaps: 0, downSeconds: 0 },
      users: [{ job: '1002', share: 0.5, flows: 1 }],
    },
  ],
  directionsTotal: 8,
  culprits: [{ job: '1002', direction: ISL, share: 0.5, behindShare: 0.33, directions: 1 }],
  victims: [],
  verdict: {
    cause: 'congestion',
    text: "job 1001 spent 67 % of the window behind edge1/4 → core2/1 at ≥ 95 % utilization; job 1002's traffic carried 50 % of it",
  },
  evidence: [
    { time: '2026-01-01T08:00:21.000Z', direction: ISL, what: 'start of its longest congested stretch' },
  ],
  unknowns: {
    hostsNotOnFabric: ['node999'],
    hostsNotOnFabricTotal: 1,
    unknownSeconds: 4,
    gaps: [{ time: '2026-01-01T08:01:00.000Z', subject: 'edge1/4', what: 'no fresh reading' }],
    gapsTotal: 3,
    notes: ['estimated'],
  },
};

describe('fabscope why JOB', () => {
  let server: Server;
  let url: string;

  beforeAll(async () => {
    server = createServer((req, res) => {
      res.setHeader('content-type', 'application/json');
      if (req.url === '/api/v1/jobs/1001/report') res.end(JSON.stringify(REPORT));
      else if (req.url?.startsWith('/api/v1/jobs/1001/report?')) {
        res.statusCode = 400;
        res.end(JSON.stringify({ message: `asked ${decodeURIComponent(req.url.split('?')[1] ?? '')}` }));
      } else {
        res.statusCode = 404;
        res.end(JSON.stringify({ message: 'no job "nope" in the file job source' }));
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('prints the verdict first, then culprits, the worst directions, evidence and the unknowns', () => {
    const text = renderJobReport(REPORT);
    const lines = text.split('\n');
    expect(lines[0]).toBe('job 1001 (cfd, alice) COMPLETED, 2 of 3 hosts on the fabric');
    expect(text).toContain(`verdict: ${REPORT.verdict.text}`);
    expect(text).toMatch(/culprits.*\n.*\n {2}1002 +edge1\/4->core2\/1 +50 % +33 %/);
    expect(text).toMatch(/victims \(jobs it slowed\)\n {2}none/);
    expect(text).toMatch(
      /worst link directions \(1 of 8\)\n.*\n {2}edge1\/4->core2\/1 +60 s +70 %\/98 %\/98 % +2 % +0 +0 +1002 50 %/,
    );
    expect(text).toContain(
      '  2026-01-01T08:00:21.000Z  edge1/4->core2/1  start of its longest congested stretch',
    );
    expect(text).toContain('  1 host(s) not on the fabric: node999');
    expect(text).toContain(
      '  3 collection gap(s), first at 2026-01-01T08:01:00.000Z (edge1/4: no fresh reading)',
    );
    expect(text).toContain('routes computed by fabscope (2, 1 listed)');
  });

  it('asks the server and prints the report; --json prints the answer as it came', async () => {
    const run = await runCli(['why', '1001', '--url', url]);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(renderJobReport(REPORT));
    const json = await runCli(['why', '1001', '--url', url, '--json']);
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toEqual(REPORT);
  });

  it("passes --from/--to, and says the server's reason with exit 1 when it refuses", async () => {
    const missing = await runCli(['why', 'nope', '--url', url]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toBe('fabscope why: 404 no job "nope" in the file job source\n');
    const window = await runCli(['why', '1001', '--url', url, '--from', 'now-1h', '--to', 'now']);
    expect(window.stderr).toBe('fabscope why: 400 asked from=now-1h&to=now\n');
    const usage = await runCli(['why']);
    expect(usage.code).not.toBe(0);
    expect(usage.stderr).toMatch(/give one job id\nusage: fabscope why JOB/);
  });
});
