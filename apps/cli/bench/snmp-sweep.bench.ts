// `npm run bench -- snmp-sweep`: the SNMP source sweeping 64 simulated 64-port switches (4,096 ports), the
// emulator's recordings served by test-support's snmprec agents (one process, a UDP port per switch; snmpsim costs
// 1–2 ms a value, docs/scaling.md), against Debian's snmp_exporter (0.21) scraping the same agents in the same run,
// every switch at once as Prometheus scrapes its targets. Runs (SNMP_BENCH_RUNS, default 5) alternate; the median
// of each is kept, the source's first (discovery) sweep apart. Limits: the sweep ≤ 2 s, and snmp_exporter's ports/s
// at most half the source's.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseSnmpTargets, snmpSource } from '@fabscope/collectors';
import { type PortTraffic, writeRecordings } from '@fabscope/emulator';
import {
  benchReporter,
  median,
  SNMP_EXPORTER_CONFIG,
  startSnmpExporter,
  startSnmprecAgents,
} from '@fabscope/test-support';
import { twoTierFatTree } from '@fabscope/topology';

const SWEEP_LIMIT_MS = 2000;
const RUNS = Number(process.env.SNMP_BENCH_RUNS ?? 5);
/** Long enough for a loaded machine: a late answer is slow, not lost, for both readers. */
const TIMEOUT_MS = 10_000;

const bench = benchReporter();
const fabric = twoTierFatTree({
  name: 'snmp-bench',
  fabricType: 'ethernet',
  radix: 64,
  edgeCount: 32,
  coreCount: 32,
  hostsPerEdge: 32,
  rateGbps: 400,
});
const switches = fabric.nodes.filter((n) => n.type === 'switch');
const work = mkdtempSync(join(tmpdir(), 'fabscope-snmp-bench-'));
const startedMs = Date.now();
// Every port up with traffic counted so far, standing still: a sweep's speed does not depend on the values.
const traffic = new Map<string, PortTraffic>();
for (const node of switches) {
  for (let p = 1; p <= node.portCount; p++) {
    traffic.set(`${node.name}/${p}`, {
      outOctets: 10n ** 12n,
      inOctets: 10n ** 12n,
      outPackets: 10n ** 9n,
      inPackets: 10n ** 9n,
      outOctetsRate: 0,
      inOctetsRate: 0,
      outPacketsRate: 0,
      inPacketsRate: 0,
      inErrors: 0n,
      outDiscards: 0n,
      up: true,
    });
  }
}
writeRecordings(fabric, work, traffic, startedMs, startedMs - 3_600_000);

/** snmp_exporter 0.21 keeps the community in the module: the shipped if_mib once per switch (YAML is JSON's superset). */
function exporterConfig(): string {
  const ifMib = readFileSync(SNMP_EXPORTER_CONFIG, 'utf8');
  const modules = switches.map((s) =>
    ifMib
      .replace(/^#.*\n/gm, '')
      .replace(/^if_mib:/m, `${s.name}:`)
      .replace(/community: public/, `community: ${s.name}`)
      .replace(/retries: \d+/, 'retries: 0')
      .replace(/timeout: \S+/, `timeout: ${TIMEOUT_MS / 1000}s`),
  );
  const file = join(work, 'snmp.yml');
  writeFileSync(file, modules.join(''));
  return file;
}

const sim = await startSnmprecAgents(
  Object.fromEntries(switches.map((s) => [s.name, join(work, `${s.name}.snmprec`)])),
);
const exporter = await startSnmpExporter(exporterConfig());
const agents = switches.map((s) => ({ name: s.name, port: sim.ports.get(s.name) as number }));
const source = snmpSource({
  targets: parseSnmpTargets(agents.map((a) => `127.0.0.1:${a.port} v2c ${a.name}`).join('\n')),
  timeoutMs: TIMEOUT_MS,
  retries: 0,
  // Every switch at once, as snmp_exporter is asked for them here.
  concurrency: switches.length,
});

/** A process's CPU seconds so far (user + system, /proc/PID/stat at 100 ticks a second). */
function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** CPU seconds of the agents, snmp_exporter and this process (the source, or the exporter's client) in `phase`. */
async function cpuOf<T>(phase: () => Promise<T>): Promise<{ result: T; cpu: number[] }> {
  const before = [cpuSeconds(sim.pid), cpuSeconds(exporter.pid), cpuSeconds(process.pid)];
  const result = await phase();
  const after = [cpuSeconds(sim.pid), cpuSeconds(exporter.pid), cpuSeconds(process.pid)];
  return { result, cpu: after.map((a, k) => a - (before[k] as number)) };
}

/** One sweep of the source: its duration and the ports it read. */
async function sourceSweep(): Promise<{ ms: number; ports: number }> {
  const t = performance.now();
  const snapshot = await source.read(AbortSignal.timeout(4 * TIMEOUT_MS));
  const failed = snapshot.targets?.filter((x) => x.outcome !== 'ok') ?? [];
  if (failed.length > 0) throw new Error(`the source lost ${failed.length} agents: ${failed[0]?.reason}`);
  return { ms: performance.now() - t, ports: snapshot.ports.length };
}

/** snmp_exporter scraping every switch at once: its duration and the ports (ifHCInOctets series) it returned. */
async function exporterSweep(): Promise<{ ms: number; ports: number }> {
  const t = performance.now();
  const pages = await Promise.all(
    agents.map(async (a) => {
      const url = `${exporter.base}/snmp?target=127.0.0.1:${a.port}&module=${a.name}`;
      const response = await fetch(url, { signal: AbortSignal.timeout(4 * TIMEOUT_MS) });
      return response.text();
    }),
  );
  const ports = pages.reduce((n, page) => n + (page.match(/^ifHCInOctets\{/gm)?.length ?? 0), 0);
  return { ms: performance.now() - t, ports };
}

try {
  const ours: number[] = [];
  const theirs: number[] = [];
  const discovery = await sourceSweep();
  const cpu = { ours: [0, 0, 0], theirs: [0, 0, 0] };
  const add = (into: number[], from: number[]) => {
    for (const [k, v] of from.entries()) into[k] = (into[k] ?? 0) + v;
  };
  for (let run = 0; run < RUNS; run++) {
    const { result: a, cpu: ourCpu } = await cpuOf(sourceSweep);
    const { result: b, cpu: theirCpu } = await cpuOf(exporterSweep);
    add(cpu.ours, ourCpu);
    add(cpu.theirs, theirCpu);
    if (a.ports !== 4096 || b.ports !== 4096)
      throw new Error(`ports read: ${a.ports} and ${b.ports}, not 4096`);
    ours.push(a.ms);
    theirs.push(b.ms);
  }
  const oursMs = median(ours);
  const theirsMs = median(theirs);
  bench.report('snmp source first sweep (every table)', discovery.ms, 'ms', undefined, 0);
  bench.report('snmp source sweep, 64 switches × 64 ports', oursMs, 'ms', SWEEP_LIMIT_MS, 0);
  bench.report('snmp source ports/s', (4096 / oursMs) * 1000, 'ports/s', undefined, 0);
  bench.report('snmp_exporter scrape of the same 64 agents', theirsMs, 'ms', undefined, 0);
  bench.report('snmp_exporter ports/s', (4096 / theirsMs) * 1000, 'ports/s', undefined, 0);
  bench.report("snmp_exporter's ports/s over the source's", oursMs / theirsMs, '×', 0.5);
  // Where each reader's time goes: CPU seconds per sweep of the agents, snmp_exporter and this process.
  const per = (v: number | undefined) => Number(((v ?? 0) / RUNS).toFixed(2));
  console.log(
    `cpu s per sweep (agents, snmp_exporter, bench process) on ${cpus().length} cores: source ` +
      `${cpu.ours.map(per).join(', ')}; snmp_exporter ${cpu.theirs.map(per).join(', ')}`,
  );
} finally {
  await exporter.stop();
  await sim.stop();
  rmSync(work, { recursive: true, force: true });
}
process.exit(bench.failed === 0 ? 0 : 1);
