import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { createSocket } from 'node:dgram';
import { chmodSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { endChild } from '../pieces.ts';

const run = promisify(execFile);

/** snmpsimd serving a directory of recordings (a community each) on a loopback UDP port. */
export interface SnmpsimAgent {
  port: number;
  /** Starts snmpsimd again to read rewritten recordings (it keeps a numeric value's rate until it restarts). */
  restart(): Promise<void>;
  stop(): Promise<void>;
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

/**
 * snmpsimd over `dataDir` (its files `<community>.snmprec`), ready once `probe`'s recording answers. Restarts
 * run one at a time; one asked for during another runs after it, so the last rewrite is always read.
 */
export async function startSnmpsimAgent(
  dataDir: string,
  cacheDir: string,
  probe: string,
): Promise<SnmpsimAgent> {
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
        ...asRoot,
      ],
      { stdio: 'ignore' },
    );
    child = c;
    const deadline = Date.now() + 30_000;
    while (!(await answers(port, probe))) {
      if (c.exitCode !== null)
        throw new Error(`snmpsimd exited with ${c.exitCode} (is Debian's snmpsim installed?)`);
      if (Date.now() > deadline) throw new Error('snmpsimd did not answer within 30 s');
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  };
  const stopChild = async () => {
    if (child) await endChild(child, 2000);
  };
  await start();
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

/** The agent's cache beside its data, as the demo lays them out. */
export const cacheDirOf = (dir: string) => join(dir, 'cache');
