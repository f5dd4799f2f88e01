import { buildScenario, fatTreeRouting, routeBetween } from '../src/index.ts';

// Baseline figures for the skeleton's fat-tree engine on fat-tree-1152.
const fabric = buildScenario('fat-tree-1152');
let started = performance.now();
const tables = fatTreeRouting(fabric);
const routingMs = performance.now() - started;
const hosts = fabric.nodes.filter((n) => n.type === 'host');
const lookups = 20_000;
started = performance.now();
for (let i = 0; i < lookups; i++) {
  const a = hosts[i % hosts.length];
  const b = hosts[(i * 7 + 13) % hosts.length];
  if (a && b && a !== b) routeBetween(fabric, tables, a.name, b.name);
}
const lookupUs = ((performance.now() - started) * 1000) / lookups;
console.log(`fat-tree-1152 routing: ${routingMs.toFixed(1)} ms`);
console.log(`fat-tree-1152 route lookup: ${lookupUs.toFixed(2)} µs`);
console.log(`peak RSS: ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MiB`);
