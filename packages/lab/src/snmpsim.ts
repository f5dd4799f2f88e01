import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { createSocket } from 'node:dgram';
import { chmodSync, mkdirSync } from 'node:fs';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** snmpsimd (PyPI/Debian `snmpsim`) serving a directory of recordings, a community (or v3 context) per file. */
export interface SnmpsimAgent {
  /** The loopback UDP port it answers on. */
  port: number;
  /**
   * Starts snmpsimd again on the same port: rewritten recordings are read (it keeps a numeric value's rate until it
   * restarts), counters and sysUpTime begin again. Restarts run one at a time; one asked for during another runs after
   * it, so the last rewrite is always read.
   */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

export interface SnmpsimAgentOptions {
  /** Its recordings, `<community>.snmprec`. */
  dataDir: string;
  /** Where it writes its index of them. */
  cacheDir: string;
  /** The community whose answer to sysUpTime says it is ready. */
  probe: string;
  /** More snmpsimd arguments (v3 users). */
  args?: readonly string[];
  /** How long a start may take before it fails (default 30 s: a big recording is indexed first). */
  readyWithinMs?: number;
}

/** A UDP port nothing listens on now. */
export async function freeUdpPort(): Promise<number> {
  const socket = createSocket('udp4');
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  const { port } = socket.address();
  await new Promise<void>((resolve) => socket.close(() => resolve()));
  return port;
}

async function answers(port: number, community: string): Promise<boolean> {
  try {
    const args = ['-v2c', '-c', community, '-t', '0.3', '-r', '0', `127.0.0.1:${port}`, '1.3.6.1.2.1.1.3.0'];
    await run('snmpget', args);
    return true;
  } catch {
    return false;
  }
}

/** SIGTERM, then SIGKILL if it has not exited within 2 s. */
async function end(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 2000);
  await exited;
  clearTimeout(timer);
}

/** snmpsimd on a free loopback UDP port over `dataDir`, once `probe`'s recording answers. */
export async function startSnmpsimAgent(options: SnmpsimAgentOptions): Promise<SnmpsimAgent> {
  const { dataDir, cacheDir, probe, args = [], readyWithinMs = 30_000 } = options;
  // snmpsimd refuses to run as root: it drops to nobody, who must read the data and write the index.
  chmodSync(dataDir, 0o755);
  mkdirSync(cacheDir, { recursive: true, mode: 0o777 });
  chmodSync(cacheDir, 0o777);
  const port = await freeUdpPort();
  const asRoot = process.getuid?.() === 0 ? ['--process-user=nobody', '--process-group=nogroup'] : [];
  let child: ChildProcess | null = null;
  const start = async () => {
    const c = spawn(
      'snmpsimd',
      [
        `--data-dir=${dataDir}`,
        `--cache-dir=${cacheDir}`,
        `--agent-udpv4-endpoint=127.0.0.1:${port}`,
        '--logging-method=null',
        ...args,
        ...asRoot,
      ],
      // Its cache directory is the one place it may write as nobody.
      { cwd: cacheDir, stdio: 'ignore' },
    );
    child = c;
    const deadline = Date.now() + readyWithinMs;
    while (!(await answers(port, probe))) {
      if (c.exitCode !== null)
        throw new Error(`snmpsimd exited with ${c.exitCode} (is Debian's snmpsim installed?)`);
      if (Date.now() > deadline) throw new Error(`snmpsimd did not answer within ${readyWithinMs / 1000} s`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };
  const stopChild = async () => {
    if (child) await end(child);
  };
  try {
    await start();
  } catch (error) {
    await stopChild();
    throw error;
  }
  let restarting: Promise<void> | null = null;
  let again = false;
  const restart = async (): Promise<void> => {
    if (restarting) {
      again = true;
      return restarting;
    }
    restarting = (async () => {
      do {
        again = false;
        await stopChild();
        await start();
      } while (again);
    })().finally(() => {
      restarting = null;
    });
    return restarting;
  };
  return {
    port,
    restart,
    stop: async () => {
      await restarting?.catch(() => undefined);
      await stopChild();
    },
  };
}
