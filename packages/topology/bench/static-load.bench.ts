// `npm run bench -- static-load`: the static route load (ibdiagnet -r: host-to-host paths per switch
// output port) of fattree tables at 1152, 6912 and 27,648 hosts, each size in its own child process
// so its peak RSS is its own. Prints `name: value unit (limit …)`; exits non-zero when a figure misses
// its limit.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { benchReporter } from '@fabscope/test-support';
import { buildScenario, fatTreeRouting, staticRouteLoad, summarizeStaticLoad } from '../src/index.ts';

const SIZES = ['fat-tree-1152', 'fat-tree-6912', 'fat-tree-27648'] as const;

interface Figures {
  scenario: string;
  hosts: number;
  switches: number;
  paths: number;
  loadMs: number;
  summaryMs: number;
  maxUpPaths: number;
  peakRssMiB: number;
}

function measure(scenario: string): Figures {
  const fabric = buildScenario(scenario);
  const tables = fatTreeRouting(fabric);
  const hosts = fabric.nodes.filter((n) => n.type === 'host').length;
  let started = performance.now();
  const load = staticRouteLoad(fabric, tables);
  const loadMs = performance.now() - started;
  started = performance.now();
  const { groups } = summarizeStaticLoad(fabric, load, 20);
  const summaryMs = performance.now() - started;
  return {
    scenario,
    hosts,
    switches: fabric.nodes.length - hosts,
    paths: load.routed,
    loadMs,
    summaryMs,
    maxUpPaths: Math.max(...groups.filter((g) => g.direction === 'up').map((g) => g.max)),
    peakRssMiB: process.resourceUsage().maxRSS / 1024,
  };
}

const childArg = process.argv.indexOf('--child');
if (childArg >= 0) {
  process.stdout.write(JSON.stringify(measure(process.argv[childArg + 1] as string)));
} else {
  const bench = benchReporter();
  for (const scenario of SIZES) {
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
    const big = f.hosts === 27_648;
    bench.report(
      `${scenario} static route load (${f.paths.toExponential(3)} paths)`,
      f.loadMs,
      'ms',
      big ? 5000 : undefined,
      0,
    );
    // O(destinations × switches): the time per pair must not grow with the fabric (1152 is mostly warm-up).
    bench.report(
      `${scenario} static load ns per destination×switch`,
      (f.loadMs * 1e6) / (f.hosts * f.switches),
      'ns',
      big ? 60 : undefined,
    );
    bench.report(
      `${scenario} static load summary (top 20, per tier)`,
      f.summaryMs,
      'ms',
      big ? 500 : undefined,
      0,
    );
    bench.report(`${scenario} busiest up-port`, f.maxUpPaths, 'paths', undefined, 0);
    bench.report(`${scenario} peak RSS`, f.peakRssMiB, 'MiB', big ? 1024 : undefined, 0);
  }
  process.exit(bench.failed === 0 ? 0 : 1);
}
