// `npm run bench -- parse-formats`: fat-tree-27648 (27,648 hosts, 2,880 switches, 82,944 links)
// written as opareport -o topology XML and as an ibnetdiscover dump, each parsed back in the same
// run. The XML parse must stay within 2× the dump's (it was quadratic in the elements: about an
// hour at this size). Best of five runs each, alternating, a full GC before each; the limit holds
// for the wall-clock times and for the CPU times (the process's, GC threads included), which other
// work on a shared machine inflates less.
// Prints `name: value unit (limit …)`; exits non-zero when a figure misses its limit.
import { benchReporter, formatIbnetdiscover } from '@fabscope/test-support';
import { buildScenario, type Fabric, parseTopology } from '../src/index.ts';
import { formatOpareportTopology } from '../test/oracles/write-opareport.ts';

const RUNS = 5;
const MAX_RATIO = 2;
const gc = (globalThis as { gc?: () => void }).gc ?? (() => {});

const fabric = buildScenario('fat-tree-27648');
const xml = formatOpareportTopology(fabric);
const dump = formatIbnetdiscover(fabric);

interface Timed {
  ms: number;
  cpuMs: number;
  parsed: Fabric;
}

function timed(text: string): Timed {
  gc();
  const cpu = process.cpuUsage();
  const started = performance.now();
  const parsed = parseTopology(text);
  const ms = performance.now() - started;
  const used = process.cpuUsage(cpu);
  return { ms, cpuMs: (used.user + used.system) / 1000, parsed };
}

const best = { xml: { ms: Infinity, cpuMs: Infinity }, dump: { ms: Infinity, cpuMs: Infinity } };
let fromXml: Fabric | undefined;
let fromDump: Fabric | undefined;
for (let run = 0; run < RUNS; run++) {
  const x = timed(xml);
  best.xml = { ms: Math.min(best.xml.ms, x.ms), cpuMs: Math.min(best.xml.cpuMs, x.cpuMs) };
  fromXml = x.parsed;
  const d = timed(dump);
  best.dump = { ms: Math.min(best.dump.ms, d.ms), cpuMs: Math.min(best.dump.cpuMs, d.cpuMs) };
  fromDump = d.parsed;
}

const bench = benchReporter('fat-tree-27648 ', 0);
const mib = (text: string) => Buffer.byteLength(text) / 2 ** 20;
bench.report(`opareport XML size (${fabric.links.length} links)`, mib(xml), 'MiB', undefined, 1);
bench.report('ibnetdiscover dump size', mib(dump), 'MiB', undefined, 1);
bench.report(`opareport XML parse (best of ${RUNS})`, best.xml.ms, 'ms');
bench.report(`ibnetdiscover parse (best of ${RUNS})`, best.dump.ms, 'ms');
bench.report('XML / dump parse time, wall clock', best.xml.ms / best.dump.ms, '×', MAX_RATIO, 2);
bench.report(`opareport XML parse CPU time (best of ${RUNS})`, best.xml.cpuMs, 'ms');
bench.report(`ibnetdiscover parse CPU time (best of ${RUNS})`, best.dump.cpuMs, 'ms');
bench.report('XML / dump parse CPU time', best.xml.cpuMs / best.dump.cpuMs, '×', MAX_RATIO, 2);
// Both read back the whole fabric: every node and every cable.
for (const [format, parsed] of [
  ['opareport XML', fromXml],
  ['ibnetdiscover', fromDump],
] as const) {
  const missing =
    Math.abs((parsed?.nodes.length ?? 0) - fabric.nodes.length) +
    Math.abs((parsed?.links.length ?? 0) - fabric.links.length);
  bench.report(`${format}: nodes and links not read back`, missing, 'missing', 0);
}
process.exit(bench.failed === 0 ? 0 : 1);
