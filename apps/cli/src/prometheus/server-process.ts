import { execFile, spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePort } from '../free-port.ts';
import { endChild } from '../pieces.ts';

interface ServerProcessOptions {
  name: string;
  binary: string;
  args: string[];
  dataDir: string;
  readyUrl: string;
  readyTimeoutMs?: number | undefined;
  /** Grace after SIGTERM on stop before SIGKILL; default 5 s. */
  killAfterMs?: number | undefined;
}

/** Runs a server binary and polls `readyUrl` until 2xx; a failure quotes the end of its stderr. */
export async function startServerProcess(options: ServerProcessOptions) {
  const child = spawn(options.binary, options.args, { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-4000);
  });
  const exited = new Promise<string>((resolve) =>
    child.once('exit', (code, signal) => resolve(signal ? `signal ${signal}` : `code ${code}`)),
  );
  const stop = async () => {
    await endChild(child, options.killAfterMs ?? 5000);
    await rm(options.dataDir, { recursive: true, force: true });
  };
  const deadline = Date.now() + (options.readyTimeoutMs ?? 30_000);
  while (Date.now() < deadline) {
    if (child.exitCode !== null) {
      await stop();
      throw new Error(`${options.name} exited with code ${child.exitCode}: ${stderr.trim()}`);
    }
    const ready = await fetch(options.readyUrl, { signal: AbortSignal.timeout(1000) }).catch(() => null);
    if (ready?.ok) return { child, exited, stop };
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  await stop();
  throw new Error(`${options.name} did not become ready at ${options.readyUrl}: ${stderr.trim()}`);
}

/** A server started by startLoopbackServer. */
export interface LoopbackServer {
  url: string;
  configFile: string;
  /** The process id, for a supervisor (and tests) to watch or signal it. */
  pid: number | undefined;
  /** Resolves with how the process ended ("code 0", "signal SIGKILL"), whoever ended it. */
  exited: Promise<string>;
  stop(): Promise<void>;
}

/** A program fabscope runs is not installed. */
class MissingToolError extends Error {
  override name = 'MissingToolError';
}

/** The first of `candidates` that runs `--version`; none: a MissingToolError naming the Debian package. */
export async function findTool(candidates: string[], debianPackage: string): Promise<string> {
  for (const candidate of candidates) {
    try {
      await promisify(execFile)(candidate, ['--version'], { timeout: 10_000 });
      return candidate;
    } catch {
      // try the next name
    }
  }
  throw new MissingToolError(
    `"${candidates[0]}" was not found on PATH: install the Debian package "${debianPackage}" (apt-get install ${debianPackage})`,
  );
}

/** Writes `config` into a fresh temp directory and serves `binary` on a loopback port until ready. */
export async function startLoopbackServer(
  options: Omit<ServerProcessOptions, 'args' | 'dataDir' | 'readyUrl'> & {
    config: (dir: string) => string;
    args: (dir: string, configFile: string, port: number) => string[];
    beforeStart?: ((dir: string) => Promise<void>) | undefined;
    port?: number | undefined;
  },
): Promise<LoopbackServer> {
  const dir = await mkdtemp(join(tmpdir(), `fabscope-${options.name}-`));
  const configFile = join(dir, `${options.name}.yml`);
  await writeFile(configFile, options.config(dir));
  await options.beforeStart?.(dir);
  const port = options.port ?? (await freePort());
  const url = `http://127.0.0.1:${port}`;
  const server = await startServerProcess({
    ...options,
    args: options.args(dir, configFile, port),
    dataDir: dir,
    readyUrl: `${url}/-/ready`,
  });
  return { url, configFile, pid: server.child.pid, exited: server.exited, stop: server.stop };
}
