import { type ChildProcess, spawn } from 'node:child_process';
import { freePort } from '@fabscope/test-support';
import { afterAll, describe, expect, it } from 'vitest';
import { eventually } from './eventually.ts';
import { BIN } from './run-cli.ts';

// `fabscope demo` as a user runs it, with a job source that fails (squeue exits 1): the 502 it
// answers leaves exactly one line on the demo's stderr, with the request id the answer carries,
// the route and the cause — at the default log level, with no setting to turn it on.
describe('fabscope demo: a forced 5xx leaves one stderr line', () => {
  let child: ChildProcess | undefined;
  afterAll(() => {
    if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });

  it('GET /api/v1/jobs with squeue failing: 502 naming squeue, one stderr line with its request id', async () => {
    const port = await freePort();
    const demo = spawn(process.execPath, [BIN, 'demo'], {
      env: {
        ...process.env,
        HOST: '127.0.0.1',
        PORT: String(port),
        FABSCOPE_SCENARIO: 'ar-demo',
        FABSCOPE_JOBS: 'slurm',
        FABSCOPE_SQUEUE: 'false',
        FABSCOPE_LOG_LEVEL: '',
      },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    child = demo;
    let stderr = '';
    demo.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const api = `http://127.0.0.1:${port}/api/v1`;
    await eventually(async () => {
      if (demo.exitCode !== null) throw new Error(`fabscope demo exited: ${stderr}`);
      expect((await fetch(`${api}/health`)).status).toBe(200);
    }, 60_000);

    const res = await fetch(`${api}/jobs`);
    expect(res.status).toBe(502);
    const { message } = (await res.json()) as { message: string };
    expect(message).toMatch(/^false .*failed/);
    const requestId = res.headers.get('x-request-id') as string;
    expect(requestId).toBeTruthy();
    const lines = await eventually(async () => {
      const mine = stderr.split('\n').filter((line) => line.includes(`"reqId":"${requestId}"`));
      expect(mine.length).toBeGreaterThan(0);
      return mine;
    }, 10_000);
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0] as string)).toMatchObject({
      reqId: requestId,
      route: '/api/v1/jobs',
      statusCode: 502,
      cause: message,
    });
  }, 120_000);
});
