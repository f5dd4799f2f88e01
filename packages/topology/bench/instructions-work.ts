// The work of each topology figure, counted by instructions.bench.ts under callgrind. It imports
// the checkout it runs in (its working directory), so the same work is counted on a baseline
// that predates this file.
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const [figure, callsText, scenario = 'fat-tree-1152'] = process.argv.slice(2);
const calls = Number(callsText);
const t = await import(pathToFileURL(join(process.cwd(), 'packages/topology/src/index.ts')).href);

const fabric = t.buildScenario(scenario);
t.fabricGraph(fabric);
const tables = t.fatTreeRouting(fabric);
const hosts = fabric.nodes.filter((n: { type: string }) => n.type === 'host');
const linkUp = new Uint8Array(fabric.links.length).fill(1);
linkUp[fabric.links.find((l: { kind: string }) => l.kind === 'isl')?.index ?? 0] = 0;

/** One call of the figure's work; returns something of its answer so it cannot be optimised away. */
const WORK: Record<string, () => number> = {
  generate: () => t.fabricGraph(t.buildScenario(scenario)).isSwitch.length,
  'routing fattree': () => t.fatTreeRouting(fabric).engine.length,
  'route lookup (1,000)': () => {
    let hops = 0;
    for (let i = 0; i < 1000; i++) {
      const a = hosts[i % hosts.length];
      const b = hosts[(i * 7919 + 13) % hosts.length];
      if (a !== b) hops += t.routeBetween(fabric, tables, a.name, b.name).hops.length;
    }
    return hops;
  },
  'permutation analysis': () =>
    t.analyzeContention(fabric, tables, t.parsePattern('permutation:1')).maxLinkLoad,
  'sweep tables, one ISL down': () => (t.sweepTables(fabric, linkUp, t.routingFor('fattree')) ? 1 : 0),
};

const work = WORK[figure as string];
if (!work || !Number.isInteger(calls)) {
  console.error(`usage: instructions-work.ts ${Object.keys(WORK).join('|')} CALLS [SCENARIO]`);
  process.exit(2);
}
let answer = 0;
const heapBefore = process.memoryUsage().heapUsed;
for (let i = 0; i < calls; i++) answer += work();
// The bench gives V8 a new space no collection fills, so this is what the calls allocated.
console.log(`allocated ${process.memoryUsage().heapUsed - heapBefore}`);
console.log(`answer ${answer}`);
