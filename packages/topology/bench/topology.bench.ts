// `npm run bench -- topology`: generation, forwarding tables, route lookup and contention analysis at
// 1152, 6912 and 27,648 hosts, and the tables of a sweep after an ISL failed. Each size runs in its own child process so its peak RSS is its own.
// Prints `name: value unit (limit …)`; exits non-zero when a figure misses its limit.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import {
  analyzeContention,
  buildScenario,
  fabricGraph,
  fatTreeRouting,
  minHopRouting,
  parsePattern,
  routeBetween,
  routingFor,
  sweepTables,
} from '../src/index.ts';

const SIZES = [
  { scenario: 'fat-tree-1152', minhop: true },
  { scenario: 'fat-tree-6912', minhop: true },
  // minhop at 27,648 hosts takes about a minute (it is the generic engine; fattree is the one for trees).
  { scenario: 'fat-tree-27648', minhop: false },
] as const;

interface Figures {
  scenario: string;
  hosts: number;
  switches: number;
  generateMs: number;
  fattreeMs: number;
  minhopMs: number | null;
  lookupUs: number;
  permutationMs: number;
  permutationMaxLinkLoad: number;
  /** A fabric manager's sweep after one ISL failed: fattree refuses, lowest-port min-hop tables. */
  sweepMs: number;
  peakRssMiB: number;
}

function measure(scenario: string, withMinhop: boolean): Figures {
  let started = performance.now();
  const fabric = buildScenario(scenario);
  fabricGraph(fabric);
  const generateMs = performance.now() - started;
  started = performance.now();
  const tables = fatTreeRouting(fabric);
  const fattreeMs = performance.now() - started;
  const hosts = fabric.nodes.filter((n) => n.type === 'host');
  const switches = fabric.nodes.length - hosts.length;

  const lookups = 50_000;
  for (let i = 0; i < 2_000; i++)
    routeBetween(
      fabric,
      tables,
      (hosts[i % hosts.length] as (typeof hosts)[number]).name,
      (hosts[(i * 7919 + 1) % hosts.length] as (typeof hosts)[number]).name,
    );
  started = performance.now();
  for (let i = 0; i < lookups; i++) {
    const a = hosts[i % hosts.length];
    const b = hosts[(i * 7919 + 13) % hosts.length];
    if (a && b && a !== b) routeBetween(fabric, tables, a.name, b.name);
  }
  const lookupUs = ((performance.now() - started) * 1000) / lookups;

  started = performance.now();
  const analysis = analyzeContention(fabric, tables, parsePattern('permutation:1'));
  const permutationMs = performance.now() - started;

  const linkUp = new Uint8Array(fabric.links.length).fill(1);
  linkUp[fabric.links.find((l) => l.kind === 'isl')?.index ?? 0] = 0;
  started = performance.now();
  sweepTables(fabric, linkUp, routingFor('fattree'));
  const sweepMs = performance.now() - started;

  let minhopMs: number | null = null;
  if (withMinhop) {
    started = performance.now();
    minHopRouting(fabric);
    minhopMs = performance.now() - started;
  }
  return {
    scenario,
    hosts: hosts.length,
    switches,
    generateMs,
    fattreeMs,
    minhopMs,
    lookupUs,
    permutationMs,
    permutationMaxLinkLoad: analysis.maxLinkLoad,
    sweepMs,
    peakRssMiB: process.resourceUsage().maxRSS / 1024,
  };
}

const childArg = process.argv.indexOf('--child');
if (childArg >= 0) {
  const scenario = process.argv[childArg + 1] as string;
  const size = SIZES.find((s) => s.scenario === scenario);
  process.stdout.write(JSON.stringify(measure(scenario, size?.minhop ?? false)));
} else {
  let missed = 0;
  const fmt = (value: number) => (value >= 100 ? value.toFixed(0) : value.toFixed(2));
  const line = (name: string, value: number, unit: string, limit?: number) => {
    const over = limit !== undefined && value > limit;
    if (over) missed++;
    console.log(
      `${name}: ${fmt(value)} ${unit} (limit ${limit === undefined ? 'none' : `${fmt(limit)} ${unit}`})${over ? '  OVER' : ''}`,
    );
  };
  const results: Figures[] = [];
  for (const { scenario } of SIZES) {
    const run = spawnSync(
      process.execPath,
      ['--import', 'tsx', fileURLToPath(import.meta.url), '--child', scenario],
      {
        encoding: 'utf8',
        maxBuffer: 1 << 20,
      },
    );
    if (run.status !== 0) {
      console.error(run.stderr);
      process.exit(1);
    }
    const f = JSON.parse(run.stdout) as Figures;
    results.push(f);
    const big = f.hosts === 27648;
    line(`${scenario} generate`, f.generateMs, 'ms');
    line(`${scenario} routing fattree`, f.fattreeMs, 'ms', big ? 2000 : undefined);
    if (f.minhopMs !== null) line(`${scenario} routing minhop`, f.minhopMs, 'ms');
    line(`${scenario} route lookup`, f.lookupUs, 'µs', 5);
    line(
      `${scenario} permutation analysis (${f.hosts} flows)`,
      f.permutationMs,
      'ms',
      big ? 1000 : undefined,
    );
    line(`${scenario} permutation maxLinkLoad`, f.permutationMaxLinkLoad, 'flows');
    line(`${scenario} sweep tables, one ISL down`, f.sweepMs, 'ms', big ? 5000 : undefined);
    line(`${scenario} peak RSS`, f.peakRssMiB, 'MiB', big ? 1024 : undefined);
  }
  // Cost must grow no faster than hosts × switches: the routing time per (host × switch) must not rise.
  const first = results[0] as Figures;
  for (const f of results) {
    const perPair = (f.fattreeMs * 1e6) / (f.hosts * f.switches);
    const firstPerPair = (first.fattreeMs * 1e6) / (first.hosts * first.switches);
    line(`${f.scenario} fattree ns per host×switch`, perPair, 'ns', Math.max(firstPerPair * 2, 5));
  }
  process.exit(missed === 0 ? 0 : 1);
}
