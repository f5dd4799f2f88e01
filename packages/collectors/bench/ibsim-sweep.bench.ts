// The InfiniBand port reader on a simulated subnet of 72 switches and 4,608 cabled ports
// (fat-tree-1152 under ibsim + OpenSM), against the tools on the same subnet in the same run:
// ibqueryerrors (discovery and PortCounters of every port), ibqueryerrors on a saved discovery,
// and one perfquery -x per switch (the collector's way until now). Window sizes are tried first;
// the default (IB_PORT_READER_DEFAULTS.outstanding) is the one kept from those runs.
import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay, PerformanceObserver } from 'node:perf_hooks';
import { promisify } from 'node:util';
import { ibsimNetFile, labMissing, startLab } from '@fabscope/lab';
import { benchReporter, median } from '@fabscope/test-support';
import { buildScenario, parsePortsReportLines } from '@fabscope/topology';
import { IB_PORT_READER_DEFAULTS, type IbPortTarget, mapBounded, openIbPortReader } from '../src/index.ts';

const run = promisify(execFile);

/** A process's CPU ms from /proc (100 ticks a second): its own, and that of its children it has waited for. */
function cpuMs(pid: string): { own: number; children: number } {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const f = stat
    .slice(stat.lastIndexOf(')') + 2)
    .split(' ')
    .map(Number);
  return {
    own: ((f[11] as number) + (f[12] as number)) * 10,
    children: ((f[13] as number) + (f[14] as number)) * 10,
  };
}

/** The pid of this process's port reader child. */
function readerChildPid(): string {
  const line = execFileSync('ps', ['-o', 'pid=,args=', '--ppid', String(process.pid)], { encoding: 'utf8' })
    .split('\n')
    .find((l) => l.includes('ib-port-reader-main'));
  if (!line) throw new Error('no reader child');
  return line.trim().split(/\s+/)[0] as string;
}
const bench = benchReporter();
const { report } = bench;
/** Back-to-back pairs (reader sweep, ibqueryerrors): the machine's load changes from one to the next. */
const RUNS = 15;
/** Runs of the slower, informative baselines. */
const BASELINE_RUNS = 3;
const WINDOWS = [1, 4, 8, 16, 32, 64, 128];
const BIG_FABRIC_PORTS = 165_888; // fat-tree-27648: 27,648 hosts, 3,456 switches

const missing = labMissing();
if (missing.length > 0) {
  console.error(
    `ibsim sweep: the InfiniBand lab needs ${missing.join(', ')} (apt-get install -y ${missing.join(' ')})`,
  );
  process.exit(1);
}

const fabric = buildScenario('fat-tree-1152');
const lab = await startLab({
  net: ibsimNetFile(fabric),
  routing: 'ftree',
  sockName: `fabscope-bench-${process.pid}-${Math.random().toString(36).slice(2, 8)}`,
});
const work = mkdtempSync(join(tmpdir(), 'fabscope-ibsim-bench-'));
const env = { ...process.env, ...lab.env };
const timed = async (cmd: string, args: string[]): Promise<{ ms: number; stdout: string }> => {
  const started = performance.now();
  try {
    // The lab's own directory: umad2sim writes a simulated sysfs into each process's cwd.
    const { stdout } = await run(cmd, args, { env, cwd: lab.cwd, maxBuffer: 256 << 20 });
    return { ms: performance.now() - started, stdout };
  } catch (error) {
    // ibqueryerrors exits non-zero when it reports a port over its thresholds (ibsim's own MADs
    // can move a counter): a run that got to its summary still timed the whole sweep.
    const e = error as { stdout?: string; killed?: boolean };
    if (!e.killed && e.stdout?.includes('Summary:'))
      return { ms: performance.now() - started, stdout: e.stdout };
    throw error;
  }
};

try {
  const ports = parsePortsReportLines((await timed('ibnetdiscover', ['-p'])).stdout).filter((l) => l.remote);
  // Switch ports as the collector marks them: their PortSamplesControl is asked too (once per port).
  const targets: IbPortTarget[] = ports.map((l) => ({
    lid: l.local.lid,
    port: l.local.port,
    switch: l.local.type === 'SW',
  }));
  const switches = new Map<number, number[]>();
  for (const l of ports) {
    if (l.local.type === 'SW')
      switches.set(l.local.lid, [...(switches.get(l.local.lid) ?? []), l.local.port]);
  }
  console.log(
    `subnet: ${fabric.name}, ${switches.size} switches, ${targets.length} cabled ports ` +
      `(${targets.length - ports.filter((l) => l.local.type === 'SW').length} host ports); ` +
      'each sweep reads PortCounters and PortCountersExtended (its 64-bit errors where the PMA has them) of ' +
      `every one, PortInfo when it can have changed (at the latest every ${IB_PORT_READER_DEFAULTS.portInfoEvery} ` +
      'sweeps), and PortSamplesControl of the switch ports until answered or refused',
  );

  // --- window sizes ---------------------------------------------------------------------------
  const sweepMs = async (outstanding: number, runs: number) => {
    const reader = openIbPortReader({ env: lab.env, outstanding });
    try {
      await reader.read(targets); // child start and capability probes
      const wall: number[] = [];
      const child: number[] = [];
      let last = await reader.read(targets);
      for (let i = 0; i < runs; i++) {
        const started = performance.now();
        last = await reader.read(targets);
        wall.push(performance.now() - started);
        child.push(last.durationSeconds * 1000);
      }
      if (last.failures > 0) throw new Error(`window ${outstanding}: ${last.failures} ports not read`);
      return { wall: median(wall), child: median(child), last };
    } finally {
      await reader.close();
    }
  };
  for (const w of WINDOWS) {
    const { wall, child, last } = await sweepMs(w, 5);
    console.log(
      `  window ${String(w).padStart(3)}: ${wall.toFixed(1)} ms per sweep (child ${child.toFixed(1)} ms), ` +
        `${Math.round(targets.length / (wall / 1000))} ports/s, ${last.madsSent} MADs, ${last.retries} retries`,
    );
  }

  // --- the reader at its default window against the tools, runs interleaved ---------------------
  const cache = join(work, 'fabric.cache');
  await timed('ibnetdiscover', ['--cache', cache]);
  const reader = openIbPortReader({ env: lab.env });
  const ours: number[] = [];
  const oursChild: number[] = [];
  const iqe: number[] = [];
  // CPU per sweep, ibsim's included: the work done, which a loaded machine's scheduling does not add to.
  const oursCpu: number[] = [];
  const iqeCpu: number[] = [];
  const ibsimPid = execFileSync('pgrep', ['-f', `^ibsim -s ${lab.dir}`], { encoding: 'utf8' }).trim();
  const iqeCached: number[] = [];
  const perSwitch: number[] = [];
  try {
    await reader.read(targets);
    const childPid = readerChildPid();
    for (let i = 0; i < RUNS; i++) {
      const cpu0 = {
        sim: cpuMs(ibsimPid).own,
        child: cpuMs(childPid).own,
        parent: process.cpuUsage(),
      };
      const started = performance.now();
      const sweep = await reader.read(targets);
      ours.push(performance.now() - started);
      const parent = process.cpuUsage(cpu0.parent);
      oursCpu.push(
        cpuMs(ibsimPid).own -
          cpu0.sim +
          cpuMs(childPid).own -
          cpu0.child +
          (parent.user + parent.system) / 1000,
      );
      oursChild.push(sweep.durationSeconds * 1000);
      if (sweep.failures > 0) throw new Error(`${sweep.failures} ports not read`);
      const iqe0 = { sim: cpuMs(ibsimPid).own, tool: cpuMs('self').children };
      iqe.push((await timed('ibqueryerrors', [])).ms);
      iqeCpu.push(cpuMs(ibsimPid).own - iqe0.sim + cpuMs('self').children - iqe0.tool);
      if (i >= BASELINE_RUNS) continue;
      iqeCached.push((await timed('ibqueryerrors', ['--counters', '--load-cache', cache])).ms);
      const t = performance.now();
      await mapBounded([...switches], 4, ([lid, list]) =>
        run('perfquery', ['-x', '-l', String(lid), list.join(',')], { env }),
      );
      perSwitch.push(performance.now() - t);
    }
    const steady = await reader.read(targets);
    console.log(
      `reader: a steady sweep sends ${steady.madsSent} MADs: ${JSON.stringify(steady.madsByAttribute)}`,
    );
  } finally {
    await reader.close();
  }
  // --- full size: 165,888 targets (the subnet's ports 36 times over), as one sweep ----------------
  const big: IbPortTarget[] = Array.from(
    { length: BIG_FABRIC_PORTS },
    (_, i) => targets[i % targets.length] as IbPortTarget,
  );
  const bigReader = openIbPortReader({ env: lab.env });
  const loop = monitorEventLoopDelay({ resolution: 1 });
  let longestGc = 0;
  const gc = new PerformanceObserver((list) => {
    for (const e of list.getEntries()) longestGc = Math.max(longestGc, e.duration);
  });
  let bigWall = 0;
  let bigChild = 0;
  try {
    await bigReader.read(targets);
    const started = performance.now();
    loop.enable();
    gc.observe({ entryTypes: ['gc'] });
    const sweep = await bigReader.read(big);
    gc.disconnect();
    loop.disable();
    bigWall = performance.now() - started;
    bigChild = sweep.durationSeconds * 1000;
    if (sweep.failures > 0 || sweep.readings.length !== big.length)
      throw new Error('the big sweep missed ports');
  } finally {
    await bigReader.close();
  }

  const oursMs = median(ours);
  const iqeMs = median(iqe);
  const portsPerSecond = targets.length / (oursMs / 1000);
  console.log(`reader: outstanding ${IB_PORT_READER_DEFAULTS.outstanding}, median of ${RUNS} sweeps`);
  report('reader full sweep of 4,608 ports (median)', oursMs, 'ms');
  report('reader sweep inside its child (median)', median(oursChild), 'ms');
  report('reader ports per second', portsPerSecond, 'ports/s', undefined, 0);
  report(`ibqueryerrors, whole process (median of ${RUNS})`, iqeMs, 'ms');
  report(`ibqueryerrors --counters --load-cache (median of ${BASELINE_RUNS})`, median(iqeCached), 'ms');
  report(
    `perfquery -x per switch, ${switches.size} processes, 4 at a time (median of ${BASELINE_RUNS})`,
    median(perSwitch),
    'ms',
  );
  console.log(
    `pairs (reader ms / ibqueryerrors ms): ${ours.map((o, i) => `${o.toFixed(0)}/${iqe[i]?.toFixed(0)}`).join(' ')}`,
  );
  report('reader CPU per sweep, ibsim answering it included (median)', median(oursCpu), 'ms');
  report('ibqueryerrors CPU per run, ibsim answering it included (median)', median(iqeCpu), 'ms');
  report(
    'reader / ibqueryerrors CPU ratio (of the medians)',
    median(oursCpu) / median(iqeCpu),
    '×',
    undefined,
    3,
  );
  report('reader / ibqueryerrors time ratio (of the medians)', oursMs / iqeMs, '×', 0.5, 3);
  report(
    `  the same, median of the ${RUNS} back-to-back pairs`,
    median(ours.map((o, i) => o / (iqe[i] as number))),
    '×',
    undefined,
    3,
  );
  report(
    `reader sweep of ${BIG_FABRIC_PORTS.toLocaleString('en')} ports at that rate`,
    BIG_FABRIC_PORTS / portsPerSecond,
    's',
  );
  report(
    `reader sweep of ${BIG_FABRIC_PORTS.toLocaleString('en')} targets, measured (these ports 36 times over)`,
    bigWall / 1000,
    's',
  );
  report('  of which in the child', bigChild / 1000, 's');
  report('  of which in the parent (targets, answer over IPC, readings)', (bigWall - bigChild) / 1000, 's');
  report("  longest the parent's event loop was held during it", loop.max / 1e6, 'ms', undefined, 1);
  report('  longest garbage collection during it', longestGc, 'ms', undefined, 1);
} finally {
  await lab.stop();
  rmSync(work, { recursive: true, force: true });
}
process.exit(bench.failed === 0 ? 0 : 1);
