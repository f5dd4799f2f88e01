import type { TrafficItem, TrafficRequest } from '@fabscope/contracts';
import type { Fabric } from '@fabscope/topology';

/**
 * Checks a traffic request against the topology before it goes to the emulator: every node named
 * exists and is a host or router, nobody is paired with itself, and each pattern has the fields it
 * needs. Returns the reason for the first problem, or null.
 */
export function checkTraffic(fabric: Fabric, request: TrafficRequest): string | null {
  const items = 'items' in request ? request.items : [request];
  for (const [i, item] of items.entries()) {
    const problem = checkItem(fabric, item);
    if (problem) return items.length > 1 ? `items[${i}]: ${problem}` : problem;
  }
  return null;
}

const REQUIRED: Record<TrafficItem['pattern'], (keyof TrafficItem)[]> = {
  pairs: ['pairs'],
  shift: ['k'],
  permutation: [],
  'all-to-all': [],
  incast: ['to'],
  bisection: [],
  iperf: ['from', 'to'],
  storage: ['server', 'op'],
};

function checkItem(fabric: Fabric, item: TrafficItem): string | null {
  for (const field of REQUIRED[item.pattern]) {
    if (item[field] === undefined) return `pattern "${item.pattern}" needs ${field}`;
  }
  if (item.pattern === 'iperf' && typeof item.from !== 'string') return 'iperf: from must be one host name';
  const names: string[] = [];
  for (const [a, b] of item.pairs ?? []) {
    names.push(a, b);
    if (a === b) return `host "${a}" is paired with itself`;
  }
  if (item.to !== undefined) names.push(item.to);
  if (item.from !== undefined) names.push(...(Array.isArray(item.from) ? item.from : [item.from]));
  if (item.server !== undefined) names.push(item.server);
  names.push(...(item.clients ?? []), ...(item.hosts ?? []));
  for (const name of names) {
    const node = fabric.nodeByName.get(name);
    if (!node) return `unknown node "${name}"`;
    if (node.type === 'switch') return `"${name}" is a switch; flows run between hosts`;
  }
  if (item.pattern === 'iperf' && item.from === item.to) return `host "${item.to}" is paired with itself`;
  return null;
}
