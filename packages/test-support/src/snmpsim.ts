import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { createSocket } from 'node:dgram';
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** snmpsim serving recordings on a loopback UDP port: one data file per community. */
export interface Snmpsim {
  port: number;
  /** Where the agent reads `<community>.snmprec`: a recording rewritten there is served after `restart()`. */
  dataDir: string;
  /** Stops the agent and starts it again on the same port: counters and sysUpTime begin again. */
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

/** snmpbulkwalk's lines for `oid`, numeric OIDs, enums as numbers, strings as hex. */
export async function snmpbulkwalk(
  port: number,
  community: string,
  oid: string,
): Promise<Map<string, string>> {
  const { stdout } = await run('snmpbulkwalk', [
    '-v2c',
    '-c',
    community,
    '-Oqn',
    '-Oe',
    '-Ox',
    `127.0.0.1:${port}`,
    oid,
  ]);
  const values = new Map<string, string>();
  for (const line of stdout.split('\n')) {
    const m = /^\.(\S+) (.*)$/.exec(line);
    if (!m) continue;
    const raw = m[2] as string;
    const hex = /^"([0-9A-F ]*)"$/.exec(raw);
    values.set(
      m[1] as string,
      hex ? Buffer.from((hex[1] as string).replaceAll(' ', ''), 'hex').toString('utf8') : raw,
    );
  }
  return values;
}

async function answers(port: number, community: string): Promise<boolean> {
  try {
    await run('snmpget', [
      '-v2c',
      '-c',
      community,
      '-t',
      '0.3',
      '-r',
      '0',
      `127.0.0.1:${port}`,
      '1.3.6.1.2.1.1.3.0',
    ]);
    return true;
  } catch {
    return false;
  }
}

/** Starts snmpsimd with `recordings` (community or v3 context → .snmprec path) and waits until `probe` answers. */
export async function startSnmpsim(
  recordings: Record<string, string>,
  probe: string,
  args: readonly string[] = [],
): Promise<Snmpsim> {
  const dir = mkdtempSync(join(tmpdir(), 'fabscope-snmpsim-'));
  // snmpsimd refuses to run as root: it drops to nobody, who must read the data and write the index.
  chmodSync(dir, 0o755);
  mkdirSync(join(dir, 'data'), { mode: 0o755 });
  mkdirSync(join(dir, 'cache'), { mode: 0o777 });
  chmodSync(join(dir, 'cache'), 0o777);
  for (const [community, file] of Object.entries(recordings)) {
    copyFileSync(file, join(dir, 'data', `${community}.snmprec`));
    chmodSync(join(dir, 'data', `${community}.snmprec`), 0o644);
  }
  const port = await freeUdpPort();
  const asRoot = process.getuid?.() === 0 ? ['--process-user=nobody', '--process-group=nogroup'] : [];
  let child: ChildProcess | null = null;
  const start = async () => {
    child = spawn(
      'snmpsimd',
      [
        `--data-dir=${join(dir, 'data')}`,
        `--cache-dir=${join(dir, 'cache')}`,
        `--agent-udpv4-endpoint=127.0.0.1:${port}`,
        '--logging-method=null',
        ...args,
        ...asRoot,
      ],
      { cwd: dir, stdio: 'ignore' },
    );
    const deadline = Date.now() + 20_000;
    while (!(await answers(port, probe))) {
      if (child.exitCode !== null) throw new Error(`snmpsimd exited with ${child.exitCode}`);
      if (Date.now() > deadline) throw new Error('snmpsimd did not answer within 20 s');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };
  const stopChild = async () => {
    const c = child as ChildProcess | null;
    if (!c || c.exitCode !== null || c.signalCode !== null) return;
    const exited = new Promise((resolve) => c.once('exit', resolve));
    c.kill('SIGTERM');
    await exited;
  };
  await start();
  return {
    port,
    dataDir: join(dir, 'data'),
    restart: async () => {
      await stopChild();
      await start();
    },
    stop: async () => {
      await stopChild();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
