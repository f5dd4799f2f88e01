// `npm run bench -- find`: Find's type-ahead at 27,648 hosts (fat-tree-27648): the index built once per
// topology version (nodes, then the ports a first `/` or `0x` asks for), and each keystroke of a few
// searches typed a letter at a time, as the API answers them (GET /find, 20 listed).
// Prints `name: value unit (limit …)`; exits non-zero when a figure misses its limit.
import { buildScenario, findIndex, findInFabric } from '../src/index.ts';

/** What an administrator types, a keystroke at a time: a host, a port, a GUID, a LID, a miss. */
const TYPED = ['host27648', 'edge17/24', 'NODE', '0x0011', 'lid:1234', 'core', 'agg3/1'];
const KEYSTROKE_LIMIT_MS = 50;

const fabric = buildScenario('fat-tree-27648');
const hosts = fabric.nodes.filter((n) => n.type === 'host').length;
let started = performance.now();
const index = findIndex(fabric);
const indexMs = performance.now() - started;
started = performance.now();
index.ports();
const portsMs = performance.now() - started;

const times: number[] = [];
for (let round = 0; round < 5; round++) {
  for (const text of TYPED) {
    for (let n = 1; n <= text.length; n++) {
      started = performance.now();
      findInFabric(fabric, text.slice(0, n), 20);
      if (round > 0) times.push(performance.now() - started);
    }
  }
}
times.sort((a, b) => a - b);
const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))] as number;

let missed = 0;
const fmt = (value: number) => (value >= 100 ? value.toFixed(0) : value.toFixed(2));
const line = (name: string, value: number, unit: string, limit?: number) => {
  const over = limit !== undefined && value > limit;
  if (over) missed++;
  console.log(
    `${name}: ${fmt(value)} ${unit} (limit ${limit === undefined ? 'none' : `${fmt(limit)} ${unit}`})${over ? '  OVER' : ''}`,
  );
};
console.log(`find at ${hosts} hosts, ${fabric.nodes.length} nodes, ${times.length} keystrokes timed`);
line('find index (nodes)', indexMs, 'ms');
line('find index (ports, on the first / or 0x)', portsMs, 'ms');
line('find keystroke median', at(0.5), 'ms', KEYSTROKE_LIMIT_MS);
line('find keystroke p99', at(0.99), 'ms', KEYSTROKE_LIMIT_MS);
line('find keystroke max', times[times.length - 1] as number, 'ms', KEYSTROKE_LIMIT_MS);
process.exit(missed === 0 ? 0 : 1);
