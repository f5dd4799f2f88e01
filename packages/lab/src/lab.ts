import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { IbsimConsole } from './ibsim-console.ts';
import { LabError } from './net-file.ts';

/** Where Debian's libumad2sim0 puts the preload library that turns umad calls into ibsim's socket. */
const UMAD2SIM_PATH = '/usr/lib/x86_64-linux-gnu/umad2sim/libumad2sim.so';

/** OpenSM's routing engines the lab offers (upstream names). */
export type SmRoutingEngine = 'ftree' | 'minhop' | 'updn';
export const SM_ROUTING_ENGINES: readonly SmRoutingEngine[] = ['ftree', 'minhop', 'updn'];

export interface LabOptions {
  /** The subnet as an ibsim net file (ibsimNetFile). */
  net: string;
  /** OpenSM's routing engine; undefined: no subnet manager (LIDs are then unassigned). */
  routing?: SmRoutingEngine | undefined;
  /** Isolates this subnet from every other on the machine; default: IBSIM_SOCKNAME, else a unique name. */
  sockName?: string | undefined;
}

export interface Lab {
  /** The unique socket name of this subnet. */
  readonly sockName: string;
  /** Working directory: the net file, OpenSM's log and dumps. */
  readonly dir: string;
  /** Environment under which a process sees this subnet as its local InfiniBand adapter. */
  readonly env: Readonly<Record<string, string>>;
  /** Working directory for every process run under `env`: umad2sim writes a simulated sysfs into it (on /dev/shm when there is one). */
  readonly cwd: string;
  /** OpenSM's `opensm-lfts.dump` (every switch's linear forwarding table), rewritten at each sweep. */
  readonly lftsDumpPath: string;
  /** Sends console commands to ibsim and resolves when it has answered every one; returns the answers. */
  command(...lines: string[]): Promise<string[]>;
  /** `PerformanceSet "node"[port] Attribute.Field=value`. */
  performanceSet(node: string, port: number, attributeField: string, value: bigint | number): Promise<void>;
  /** Pulls the cable at node/port (both ends go down), counted in that port's LinkDownedCounter. */
  unlink(node: string, port: number): Promise<void>;
  /** Plugs a cable between two ports. */
  link(a: { node: string; port: number }, b: { node: string; port: number }): Promise<void>;
  /** Whether OpenSM runs. */
  smRunning(): boolean;
  /** Waits until OpenSM has written a complete LFT dump newer than `sinceMs`; returns its text. */
  waitForLfts(sinceMs?: number, timeoutMs?: number): Promise<string>;
  /** Stops OpenSM (the subnet keeps its LIDs and tables, as when a site's SM dies). */
  stopSm(): Promise<void>;
  /** Stops OpenSM, then ibsim, and removes the working directory. */
  stop(): Promise<void>;
}

const live = new Set<ChildProcess>();
// A test or demo that dies leaves no simulated subnet behind.
process.once('exit', () => {
  for (const c of live) c.kill('SIGKILL');
});
function track(child: ChildProcess): void {
  live.add(child);
  child.once('exit', () => live.delete(child));
}

async function stopProcess(child: ChildProcess, graceMs: number): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
  await exited;
  clearTimeout(timer);
}

const LINK_DOWNED_SET = /^PerformanceSet "(.+)"\[(\d+)\] PortCounters\.LinkDownedCounter=(\d+)$/;

function uniqueSockName(): string {
  return `fabscope-${process.pid}-${Math.random().toString(36).slice(2, 10)}`;
}

/** Whether the lab's programs are installed (Debian ibsim-utils, libumad2sim0, opensm). */
export function labMissing(): string[] {
  const missing: string[] = [];
  if (!existsSync(UMAD2SIM_PATH)) missing.push('libumad2sim0');
  for (const [cmd, pkg] of [
    ['/usr/bin/ibsim', 'ibsim-utils'],
    ['/usr/sbin/opensm', 'opensm'],
    ['/usr/sbin/ibnetdiscover', 'infiniband-diags'],
  ] as const) {
    if (!existsSync(cmd)) missing.push(pkg);
  }
  return missing;
}

/** A simulated subnet: ibsim, then (with `routing`) OpenSM under umad2sim, after its first complete sweep. */
export async function startLab(options: LabOptions): Promise<Lab> {
  const missing = labMissing();
  if (missing.length > 0) {
    throw new LabError(
      `the InfiniBand lab needs the Debian packages ${missing.join(', ')} (apt-get install -y ${missing.join(' ')})`,
    );
  }
  const sockName = options.sockName ?? (process.env.IBSIM_SOCKNAME || uniqueSockName());
  const dir = mkdtempSync(join(tmpdir(), 'fabscope-lab-'));
  const netPath = join(dir, 'net');
  const cwd = mkdtempSync(join(existsSync('/dev/shm') ? '/dev/shm' : tmpdir(), 'fabscope-lab-cwd-'));
  writeFileSync(netPath, options.net);
  const env = { LD_PRELOAD: UMAD2SIM_PATH, IBSIM_SOCKNAME: sockName };
  const lftsDumpPath = join(dir, 'opensm-lfts.dump');

  const ibsim = spawn('ibsim', ['-s', netPath], {
    env: { ...process.env, IBSIM_SOCKNAME: sockName, LD_PRELOAD: '' },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  track(ibsim);
  const simConsole = new IbsimConsole(ibsim);

  let opensm: ChildProcess | undefined;
  /** The LinkDownedCounter last written to each port, so a pull counts one more. */
  const linkDowned = new Map<string, number>();
  const lab: Lab = {
    sockName,
    dir,
    env,
    cwd,
    lftsDumpPath,
    async command(...lines) {
      for (const line of lines) {
        const set = LINK_DOWNED_SET.exec(line);
        if (set) linkDowned.set(`${set[1]}[${set[2]}]`, Number(set[3]));
      }
      const result = await simConsole.write(lines);
      // ibsim answers a refused command with "# …", "command '…' unknown - skipped" or a "bad …"/"cannot …"
      // line (sim_cmd.c); a command that worked says what it did, or nothing.
      const refused = result.find((a) => /^#|unknown - skipped|^bad |\bcannot\b|not found/im.test(a));
      if (refused) throw new LabError(`ibsim refused "${lines.join('; ')}": ${refused}`);
      return result;
    },
    async performanceSet(node, port, attributeField, value) {
      await lab.command(`PerformanceSet "${node}"[${port}] ${attributeField}=${value}`);
    },
    async unlink(node, port) {
      // A real cable pull counts in LinkDownedCounter; ibsim's Unlink does not, and the collector reads
      // a port's state when that counter moves.
      const downs = Math.min(255, (linkDowned.get(`${node}[${port}]`) ?? 0) + 1);
      await lab.command(
        `PerformanceSet "${node}"[${port}] PortCounters.LinkDownedCounter=${downs}`,
        `Unlink "${node}"[${port}]`,
      );
    },
    async link(a, b) {
      await lab.command(`Link "${a.node}"[${a.port}] "${b.node}"[${b.port}]`);
    },
    smRunning: () => opensm !== undefined && opensm.exitCode === null && opensm.signalCode === null,
    async waitForLfts(sinceMs = 0, timeoutMs = 30_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        try {
          const text = readFileSync(lftsDumpPath, 'utf8');
          const { mtimeMs } = statSync(lftsDumpPath);
          if (mtimeMs >= sinceMs && /lids dumped\s*$/.test(text)) return text;
        } catch {
          // not written yet
        }
        if (!lab.smRunning()) throw new LabError(`OpenSM is not running: ${smLogTail()}`);
        if (Date.now() > deadline)
          throw new LabError(`OpenSM wrote no complete LFT dump within ${timeoutMs} ms: ${smLogTail()}`);
        await sleep(50);
      }
    },
    async stopSm() {
      if (opensm) await stopProcess(opensm, 2000);
    },
    async stop() {
      // OpenSM can outlive SIGTERM once ibsim is gone: stop it first.
      await lab.stopSm();
      await stopProcess(ibsim, 1000);
      rmSync(dir, { recursive: true, force: true });
      rmSync(cwd, { recursive: true, force: true });
    },
  };
  const smLogTail = () => {
    try {
      return readFileSync(join(dir, 'opensm.log'), 'utf8').trim().split('\n').slice(-3).join(' | ');
    } catch {
      return 'no log';
    }
  };

  try {
    const notStarted = sleep(10_000, undefined, { ref: false }).then(() => {
      throw new LabError('ibsim did not start');
    });
    await Promise.race([simConsole.ready, simConsole.exited, notStarted]);
    if (options.routing) {
      opensm = startOpensm(options.routing, dir, env);
      track(opensm);
      await lab.waitForLfts(0);
    }
    return lab;
  } catch (error) {
    await lab.stop().catch(() => undefined);
    throw error;
  }
}

/** OpenSM under the umad2sim preload, dumping its tables and log into `dir`. */
function startOpensm(routing: SmRoutingEngine, dir: string, env: Record<string, string>): ChildProcess {
  return spawn(
    'opensm',
    ['-R', routing, '-D', '0x41', '--dump_files_dir', dir, '-f', join(dir, 'opensm.log'), '-e'],
    {
      env: { ...process.env, ...env, OSM_TMP_DIR: dir, OSM_CACHE_DIR: dir },
      stdio: ['ignore', 'ignore', 'ignore'],
      cwd: dir,
    },
  );
}
