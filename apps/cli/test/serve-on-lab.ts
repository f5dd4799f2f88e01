import { spawn } from 'node:child_process';
import { join } from 'node:path';
import type { Lab } from '@fabscope/lab';
import { expect } from 'vitest';
import { freePort } from '../src/index.ts';
import { eventually } from './eventually.ts';
import { BIN } from './run-cli.ts';

export interface ServeOnLab {
  url: string;
  /** The end of what the process wrote to stderr so far. */
  stderr: () => string;
  stop: () => Promise<void>;
}

/**
 * A site's one command, run as a site runs it — `FABSCOPE_FABRIC=infiniband fabscope serve` — under
 * the lab's preload (what `ibsim-run` does), so the process reads the simulated subnet as hardware;
 * its own history and events in the lab's directory (not an earlier run's), on a free port of
 * 127.0.0.1, `env` added. Resolves once `/health` says ok (its stderr in the failure otherwise).
 */
export async function startServeOnLab(
  lab: Lab,
  env: Record<string, string>,
  readyTimeoutMs: number,
): Promise<ServeOnLab> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, [BIN, 'serve'], {
    cwd: lab.cwd,
    env: {
      ...process.env,
      ...lab.env,
      FABSCOPE_FABRIC: 'infiniband',
      FABSCOPE_DATA_DIR: join(lab.cwd, 'data'),
      ...env,
      PORT: String(port),
      HOST: '127.0.0.1',
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-4000);
  });
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  };
  try {
    await eventually(async () => {
      const health = (await (await fetch(`${url}/api/v1/health`)).json()) as { status?: string };
      expect(health.status, stderr).toBe('ok');
    }, readyTimeoutMs);
  } catch (error) {
    await stop();
    throw error;
  }
  return { url, stderr: () => stderr, stop };
}
