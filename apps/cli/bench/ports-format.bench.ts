// `npm run bench -- ports-format`: the emulator's `/v1/ports` at fat-tree-27648 (165,888 ports, a
// permutation running) in its two forms, each written by the emulator and read by the fabric
// collector into its snapshot: the JSON document (the baseline, measured in the same run) and the
// Arrow IPC stream the collector asks for (`?format=arrow`). Prints bytes and the median ms of each
// side over 5 reads; asserts the two reads agree and that the Arrow form costs the two processes
// together at most half of the JSON's.
import { isDeepStrictEqual } from 'node:util';
import { portSamplesFromEmulator, portSamplesFromEmulatorArrow } from '@fabscope/collectors';
import { createEmulator } from '@fabscope/emulator';
import { median } from '@fabscope/test-support';
import { buildScenario, routingFor } from '@fabscope/topology';

const RUNS = 5;
const scenario = process.argv[2] ?? 'fat-tree-27648';
const fabric = buildScenario(scenario);
const routing = routingFor('fattree');
const emulator = createEmulator({ fabric, tables: routing(fabric), routing, seed: 1 });
emulator.startFlows({ pattern: 'permutation', seed: 7 });
emulator.advance(1000);

const json = { write: [] as number[], read: [] as number[], bytes: 0 };
const arrow = { write: [] as number[], read: [] as number[], bytes: 0 };
let agree = true;
for (let i = 0; i < RUNS; i++) {
  emulator.advance(1000);
  // In turns, so load from elsewhere on the machine weighs on both alike.
  let t = performance.now();
  const text = Buffer.concat(emulator.portCountersJson());
  json.write.push(performance.now() - t);
  t = performance.now();
  const fromJson = portSamplesFromEmulator(JSON.parse(text.toString('utf8')));
  json.read.push(performance.now() - t);
  json.bytes = text.byteLength;
  t = performance.now();
  const stream = emulator.portCountersArrow();
  arrow.write.push(performance.now() - t);
  t = performance.now();
  const fromArrow = portSamplesFromEmulatorArrow(stream);
  arrow.read.push(performance.now() - t);
  arrow.bytes = stream.byteLength;
  if (i === 0) agree = isDeepStrictEqual(fromJson, fromArrow);
}
const total = (f: typeof json) => median(f.write) + median(f.read);
for (const [name, f] of [
  ['JSON (baseline)', json],
  ['Arrow', arrow],
] as const) {
  console.log(
    `${scenario} /v1/ports ${name}: ${(f.bytes / 1e6).toFixed(1)} MB, emulator writes ${median(f.write).toFixed(0)} ms, collector reads ${median(f.read).toFixed(0)} ms (median of ${RUNS})`,
  );
}
const ratio = total(arrow) / total(json);
console.log(
  `${scenario} /v1/ports Arrow ÷ JSON, both sides: ${ratio.toFixed(2)} (limit 0.5); reads agree: ${agree}`,
);
process.exit(agree && ratio <= 0.5 ? 0 : 1);
