// `npm run bench -- parse-formats`: fat-tree-27648 (27,648 hosts, 2,880 switches, 82,944 links)
// written as opareport -o topology XML and as an ibnetdiscover dump, each parsed back in the same
// run. The XML parse must stay within 2× the dump's (it was quadratic in the elements: about an
// hour at this size). Best of three runs each, alternating, a full GC before each.
// Prints `name: value unit (limit …)`; exits non-zero when a figure misses its limit.
import { benchReporter } from '@fabscope/test-support';
import { buildScenario, type Fabric, parseTopology } from '../src/index.ts';
import { formatIbnetdiscover } from '../src/write/ibnetdiscover.ts';
import { formatOpareportTopology } from '../src/write/opareport.ts';

const RUNS = 3;
const MAX_RATIO = 2;
const gc = (globalThis as { gc?: () => void }).gc ?? (() => {});

const fabric = buildScenario('fat-tree-27648');
const xml = formatOpareportTopology(fabric);
const dump = formatIbnetdiscover(fabric);

function timed(text: string): { ms: number; parsed: Fabric } {
  gc();
  const started = performance.now();
  const parsed = parseTopology(text);
  return { ms: performance.now() - started, parsed };
}

let xmlMs = Number.POSITIVE_INFINITY;
let dumpMs = Number.POSITIVE_INFINITY;
let fromXml: Fabric | undefined;
let fromDump: Fabric | undefined;
for (let run = 0; run < RUNS; run++) {
  const x = timed(xml);
  xmlMs = Math.min(xmlMs, x.ms);
  fromXml = x.parsed;
  const d = timed(dump);
  dumpMs = Math.min(dumpMs, d.ms);
  fromDump = d.parsed;
}

const bench = benchReporter('fat-tree-27648 ', 0);
const mib = (text: string) => Buffer.byteLength(text) / 2 ** 20;
bench.report(`opareport XML size (${fabric.links.length} links)`, mib(xml), 'MiB', undefined, 1);
bench.report('ibnetdiscover dump size', mib(dump), 'MiB', undefined, 1);
bench.report(`opareport XML parse (best of ${RUNS})`, xmlMs, 'ms');
bench.report(`ibnetdiscover parse (best of ${RUNS})`, dumpMs, 'ms');
bench.report('XML / dump parse time', xmlMs / dumpMs, '×', MAX_RATIO, 2);
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
