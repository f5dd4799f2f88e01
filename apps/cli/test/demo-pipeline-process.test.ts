import { type ChildProcess, spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { configFromEnv } from '@fabscope/api';
import { afterEach, describe, expect, it } from 'vitest';
import { CHECKOUT_ROOT } from '../src/checkout.ts';
import { type RunningDemo, startDemo } from '../src/index.ts';
import { eventually } from './eventually.ts';

/** Whether a process runs: it exists and is not a zombie waiting to be reaped (/proc). */
function alive(pid: number): boolean {
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

/** The children of a process, from /proc. */
function childPids(pid: number): number[] {
  return readdirSync(`/proc/${pid}/task`).flatMap((task) =>
    readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').split(' ').filter(Boolean).map(Number),
  );
}

// The demo's emulator and collector run in child processes of their own (pipeline-process.ts): a
// big fabric's tick or exposition computed there never holds the API's event loop.
describe('the demo pipeline in processes of its own', () => {
  let demo: RunningDemo | undefined;
  let cli: ChildProcess | undefined;
  afterEach(async () => {
    await demo?.stop();
    demo = undefined;
    cli?.kill('SIGKILL');
    cli = undefined;
  });

  it('runs the emulator and the collector in child processes, which stop() ends', async () => {
    const config = { ...configFromEnv({}), scenario: 'single-switch-32', host: '127.0.0.1', port: 0 };
    demo = await startDemo({ config, webRoot: '/nonexistent' });
    const { emulator, collector } = demo.pipelinePids;
    expect(new Set([process.pid, emulator, collector]).size).toBe(3);
    expect(childPids(process.pid)).toEqual(expect.arrayContaining([emulator, collector]));
    // The pipeline answers over HTTP from the other process, and the API reads it.
    const health = (await (await fetch(`${demo.emulatorUrl}/v1/health`)).json()) as { fabric: string };
    expect(health.fabric).toBe('single-switch-32');
    const metrics = await (await fetch(demo.collectorUrl)).text();
    expect(metrics).toContain('fabscope_');
    await eventually(async () => {
      const api = (await (await fetch(`${demo?.apiUrl}/api/v1/health`)).json()) as { status: string };
      expect(api.status).toBe('ok');
    });
    const started = (await (
      await fetch(`${demo.apiUrl}/api/v1/traffic`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ pattern: 'permutation', seed: 3 }),
      })
    ).json()) as { started: number; flows: unknown[] };
    expect(started.started).toBeGreaterThan(0);

    await demo.stop();
    demo = undefined;
    expect(alive(emulator)).toBe(false);
    expect(alive(collector)).toBe(false);
  });

  it('leaves no emulator or collector process behind when the demo process is killed', async () => {
    cli = spawn(process.execPath, [join(CHECKOUT_ROOT, 'apps/cli/bin/fabscope.js'), 'demo'], {
      stdio: ['ignore', 'pipe', 'inherit'],
      env: { ...process.env, FABSCOPE_SCENARIO: 'single-switch-32', HOST: '127.0.0.1', PORT: '0' },
    });
    const demoPid = cli.pid as number;
    const emulatorUrl = await new Promise<string>((resolve, reject) => {
      cli?.once('exit', (code) => reject(new Error(`fabscope demo exited with code ${code}`)));
      createInterface({ input: cli?.stdout as NodeJS.ReadableStream }).on('line', (line) => {
        const match = /^\s+emulator\s+(\S+)/.exec(line);
        if (match) resolve(match[1] as string);
      });
    });
    const pipeline = childPids(demoPid);
    expect(pipeline).toHaveLength(2);
    expect((await fetch(`${emulatorUrl}/v1/health`)).status).toBe(200);

    // SIGKILL: the demo runs no code of its own to stop anything; the children see their IPC channel close.
    cli.kill('SIGKILL');
    await eventually(async () => expect(pipeline.filter(alive)).toEqual([]), 10_000, 100);
    await expect(fetch(`${emulatorUrl}/v1/health`)).rejects.toThrow();
  });
});
