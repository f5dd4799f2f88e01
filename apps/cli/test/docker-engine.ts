import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const exec = promisify(execFile);

/**
 * Debian's docker client and dockerd first on PATH: its client has BuildKit built in, where a newer
 * client elsewhere on PATH (a static one in /usr/local/bin) wants the buildx plugin, which Debian's
 * docker.io does not ship; docker-compose 1.x runs `docker build` from PATH.
 */
export const DOCKER_PATH = `/usr/sbin:/usr/bin:/sbin:/bin:${process.env.PATH ?? ''}`;
export const DOCKER = '/usr/bin/docker';
const DOCKERD = '/usr/sbin/dockerd';
const START_TIMEOUT_MS = 60_000;

/** Runs a command with Debian's docker first on PATH; its error names the command and its output. */
export async function run(
  command: string,
  args: string[],
  options: { cwd?: string; env?: NodeJS.ProcessEnv; timeoutMs?: number } = {},
): Promise<string> {
  try {
    const { stdout } = await exec(command, args, {
      cwd: options.cwd,
      env: { ...process.env, PATH: DOCKER_PATH, ...options.env },
      timeout: options.timeoutMs ?? 120_000,
      maxBuffer: 64 * 1024 * 1024,
    });
    return stdout;
  } catch (error) {
    const e = error as Error & { stdout?: string; stderr?: string };
    throw new Error(
      `${command} ${args.join(' ')} failed: ${e.message}\n${e.stdout ?? ''}\n${(e.stderr ?? '').slice(-6000)}`,
    );
  }
}

async function engineAnswers(): Promise<boolean> {
  try {
    await run(DOCKER, ['info', '--format', '{{.ServerVersion}}'], { timeoutMs: 10_000 });
    return true;
  } catch {
    return false;
  }
}

export interface DockerEngine {
  /** The storage driver dockerd runs with. */
  storageDriver: string;
  /** Stops dockerd if this process started it; an engine that was already running is left alone. */
  stop(): Promise<void>;
}

async function startDockerd(args: string[], log: string): Promise<ChildProcess | null> {
  const out = openSync(log, 'w');
  const child = spawn(DOCKERD, args, {
    stdio: ['ignore', out, out],
    env: { ...process.env, PATH: DOCKER_PATH },
  });
  const deadline = Date.now() + START_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) return null;
    if (await engineAnswers()) return child;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  child.kill('SIGTERM');
  await once(child, 'exit');
  return null;
}

/**
 * The Docker engine the compose test needs: the running one, else dockerd started here (as root).
 * overlay2 first; vfs (slow, copies every layer, but needs no overlay mounts) when dockerd cannot
 * start on overlay2, as under some nested container runtimes.
 */
export async function ensureDockerEngine(): Promise<DockerEngine> {
  const storageDriver = async () =>
    (await run(DOCKER, ['info', '--format', '{{.Driver}}'], { timeoutMs: 10_000 })).trim();
  if (await engineAnswers()) return { storageDriver: await storageDriver(), stop: async () => {} };
  if (!existsSync(DOCKERD) || !existsSync(DOCKER))
    throw new Error(
      `the compose test needs Debian's docker.io (${DOCKERD}, ${DOCKER}): apt-get install -y docker.io (npm test installs it when run as root)`,
    );
  if (process.getuid?.() !== 0)
    throw new Error(
      'no Docker engine answers, and starting dockerd needs root: start it (systemctl start docker)',
    );
  const logs = mkdtempSync(join(tmpdir(), 'fabscope-dockerd-'));
  const attempts: { driver: string; args: string[] }[] = [
    { driver: 'overlay2', args: ['--storage-driver', 'overlay2'] },
    { driver: 'vfs', args: ['--storage-driver', 'vfs'] },
  ];
  const failures: string[] = [];
  for (const { driver, args } of attempts) {
    const log = join(logs, `dockerd-${driver}.log`);
    const child = await startDockerd(['--host', 'unix:///var/run/docker.sock', ...args], log);
    if (child) {
      if (failures.length > 0)
        console.log(`compose-stack: dockerd runs on ${driver}; overlay2 failed:\n${failures.join('\n')}`);
      return {
        storageDriver: driver,
        stop: async () => {
          if (child.exitCode === null && child.signalCode === null) {
            child.kill('SIGTERM');
            await once(child, 'exit');
          }
          rmSync(logs, { recursive: true, force: true });
        },
      };
    }
    failures.push(`${driver}: ${readFileSync(log, 'utf8').split('\n').slice(-15).join('\n')}`);
  }
  throw new Error(`dockerd did not start (logs in ${logs}):\n${failures.join('\n')}`);
}
