import type { Fabric, FabricNode } from '@fabscope/topology';
import type { Networks } from '../routing/networks.ts';
import { parseDuration, parseRate, parseSize } from '../units.ts';
import { ItemReader } from './item-reader.ts';
import { type FlowSpec, jobName, PATTERNS, type Pattern, TrafficError } from './request.ts';
import {
  IP_STREAM_LIMIT_BYTES_PER_SECOND,
  IPERF_DEFAULT_WRITE_BYTES,
  STORAGE_DEFAULT_IO_BYTES,
  storageStreamLimit,
  type Transport,
} from './transport.ts';

const COMMON_KEYS = ['pattern', 'start', 'duration', 'messageSize', 'demand', 'transport', 'hosts', 'job'];
const PATTERN_KEYS: Record<Pattern, string[]> = {
  pairs: ['pairs'],
  shift: ['k'],
  permutation: ['seed'],
  'all-to-all': [],
  incast: ['to', 'from'],
  bisection: [],
  iperf: ['from', 'to', 'streams'],
  storage: ['server', 'clients', 'op', 'ioSize', 'jobs'],
};

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** Checks a traffic request and expands its patterns into flows; nothing starts unless all are valid. */
export function expandTraffic(
  fabric: Fabric,
  networks: Networks,
  request: unknown,
  defaultSeed: number,
): FlowSpec[] {
  if (!isObject(request)) {
    throw new TrafficError('request must be a JSON object {pattern, …} or {items: [{pattern, …}, …]}');
  }
  if ('items' in request) {
    const { items, job, ...rest } = request;
    if (Object.keys(rest).length > 0) throw new TrafficError('give either items or one pattern, not both');
    if (!Array.isArray(items) || items.length === 0)
      throw new TrafficError('items must be a non-empty array');
    const shared = jobName(job, (message) => {
      throw new TrafficError(message);
    });
    return items.flatMap((item, i) =>
      expandItem(fabric, networks, item, defaultSeed, `items[${i}]`).map((spec) => ({
        ...spec,
        job: spec.job ?? shared,
      })),
    );
  }
  return expandItem(fabric, networks, request, defaultSeed, '');
}

/** What every item gives, read and checked. */
interface ItemCommon {
  startS: number;
  durationS: number;
  demand: number;
  messageBytes: number | null;
  job: string | undefined;
}

/** What a pattern expands to: its pairs, and what it sets of transport and limits. */
interface PatternFlows {
  pairs: [FabricNode, FabricNode][];
  transport: Transport;
  streamLimit: number;
  messageBytes: number | null;
}

function expandItem(
  fabric: Fabric,
  networks: Networks,
  raw: unknown,
  defaultSeed: number,
  where: string,
): FlowSpec[] {
  if (!isObject(raw)) {
    throw new TrafficError(`${where ? `${where}: ` : ''}a traffic item must be a JSON object with a pattern`);
  }
  const item = new ItemReader(fabric, networks, raw, where);
  const pattern = raw.pattern as Pattern;
  if (!PATTERNS.includes(pattern)) {
    return item.fail(
      `unknown pattern ${JSON.stringify(raw.pattern)}; known: ${PATTERNS.map((p) => `"${p}"`).join(', ')}`,
    );
  }
  for (const key of Object.keys(raw)) {
    if (!COMMON_KEYS.includes(key) && !PATTERN_KEYS[pattern].includes(key)) {
      item.fail(`unknown field "${key}" for pattern "${pattern}"`);
    }
  }
  const common = readCommon(item);
  return flowSpecs(
    item,
    networks,
    pattern,
    common,
    patternFlows(item, networks, pattern, common, defaultSeed),
  );
}

function readCommon(item: ItemReader): ItemCommon {
  const { raw } = item;
  const startS = item.quantity('start', parseDuration, 0);
  const durationS = item.quantity('duration', parseDuration, Number.POSITIVE_INFINITY);
  if (durationS === 0) item.fail('duration must be > 0');
  const demand = item.quantity('demand', parseRate, Number.POSITIVE_INFINITY);
  const messageBytes = item.quantity('messageSize', parseSize, null);
  const job = jobName(raw.job, (message) => item.fail(message));
  if (raw.transport !== undefined && raw.transport !== 'rdma' && raw.transport !== 'ip') {
    item.fail(`transport must be "rdma" or "ip", got ${JSON.stringify(raw.transport)}`);
  }
  return { startS, durationS, demand, messageBytes, job };
}

function patternFlows(
  item: ItemReader,
  networks: Networks,
  pattern: Pattern,
  common: ItemCommon,
  defaultSeed: number,
): PatternFlows {
  const { raw } = item;
  const flows: PatternFlows = {
    pairs: [],
    transport: raw.transport === 'ip' ? 'ip' : 'rdma',
    streamLimit: Number.POSITIVE_INFINITY,
    messageBytes: common.messageBytes,
  };
  switch (pattern) {
    case 'pairs':
      flows.pairs = namedPairs(item);
      break;
    case 'shift': {
      const list = item.hosts();
      const k = raw.k;
      if (typeof k !== 'number' || !Number.isInteger(k) || k % list.length === 0) {
        return item.fail(
          `k must be an integer that is not a multiple of the ${list.length} hosts, got ${JSON.stringify(k)}`,
        );
      }
      flows.pairs = item.collective(list, { kind: 'shift', k });
      break;
    }
    case 'permutation': {
      const list = item.hosts();
      const seed = item.count(raw.seed, 'seed', defaultSeed, 0);
      flows.pairs = item.collective(list, { kind: 'permutation', seed });
      break;
    }
    case 'all-to-all':
      flows.pairs = item.collective(item.hosts(), { kind: 'all-to-all' });
      break;
    case 'incast': {
      const to = item.node(raw.to, 'to');
      const from =
        raw.from === undefined ? item.hosts().filter((h) => h !== to) : item.nodeList(raw.from, 'from');
      flows.pairs = from.map((h) => [h, to]);
      if (flows.pairs.length === 0) return item.fail('incast needs at least one sender');
      break;
    }
    case 'bisection':
      flows.pairs = item.collective(item.hosts(), { kind: 'bisection' });
      break;
    case 'iperf':
      iperfFlows(item, flows);
      break;
    case 'storage':
      storageFlows(item, networks, flows);
      break;
  }
  return flows;
}

function namedPairs(item: ItemReader): [FabricNode, FabricNode][] {
  const list = item.raw.pairs;
  if (!Array.isArray(list)) return item.fail('pairs must be an array of [from, to] node names');
  if (list.length === 0) return item.fail('pairs is empty: give at least one [from, to] pair');
  return list.map((pair: unknown, i): [FabricNode, FabricNode] => {
    if (
      !Array.isArray(pair) ||
      pair.length !== 2 ||
      typeof pair[0] !== 'string' ||
      typeof pair[1] !== 'string'
    ) {
      return item.fail(`pairs[${i}] must be [from, to] with two node names, got ${JSON.stringify(pair)}`);
    }
    return [item.node(pair[0], `pairs[${i}]`), item.node(pair[1], `pairs[${i}]`)];
  });
}

function iperfFlows(item: ItemReader, flows: PatternFlows): void {
  const { raw } = item;
  const from = item.node(raw.from, 'from');
  const to = item.node(raw.to, 'to');
  const streams = item.count(raw.streams, 'streams', 1);
  if (streams > 1024) item.fail('streams must be at most 1024');
  flows.transport = raw.transport === 'rdma' ? 'rdma' : 'ip';
  flows.messageBytes ??= IPERF_DEFAULT_WRITE_BYTES;
  if (flows.transport === 'ip') flows.streamLimit = IP_STREAM_LIMIT_BYTES_PER_SECOND;
  flows.pairs = Array.from({ length: streams }, (): [FabricNode, FabricNode] => [from, to]);
}

function storageFlows(item: ItemReader, networks: Networks, flows: PatternFlows): void {
  const { raw } = item;
  const server = item.node(raw.server, 'server');
  if (raw.op !== 'read' && raw.op !== 'write') {
    item.fail(`op must be "read" or "write", got ${JSON.stringify(raw.op)}`);
  }
  const clients =
    raw.clients === undefined
      ? networks.hostsOf(networks.networkOf[server.index] as number).filter((h) => h !== server)
      : item.nodeList(raw.clients, 'clients');
  if (clients.length === 0) item.fail('storage needs at least one client');
  const jobs = item.count(raw.jobs, 'jobs', 1);
  if (flows.messageBytes !== null && raw.ioSize !== undefined)
    item.fail('give ioSize or messageSize, not both');
  const io = item.quantity('ioSize', parseSize, flows.messageBytes ?? STORAGE_DEFAULT_IO_BYTES);
  flows.messageBytes = io;
  for (const client of clients) {
    for (let j = 0; j < jobs; j++) flows.pairs.push(raw.op === 'read' ? [server, client] : [client, server]);
  }
  const rate = Math.min(...flows.pairs.map(([a]) => a.ports.find((p) => p && p.link >= 0)?.rateGbps ?? 0));
  flows.streamLimit = storageStreamLimit(io, rate);
}

/** One spec per pair; a pair across a router runs over IP (RDMA asked for there is refused). */
function flowSpecs(
  item: ItemReader,
  networks: Networks,
  pattern: Pattern,
  common: ItemCommon,
  flows: PatternFlows,
): FlowSpec[] {
  const { startS, durationS, demand, job } = common;
  const limit = Math.min(demand, flows.streamLimit);
  return flows.pairs.map(([from, to], i): FlowSpec => {
    if (from === to) {
      item.fail(
        pattern === 'pairs'
          ? `pairs[${i}]: "${from.name}" cannot send to itself`
          : `"${from.name}" cannot send to itself`,
      );
    }
    const crossesRouter = networks.networkOf[from.index] !== networks.networkOf[to.index];
    let transport = flows.transport;
    if (crossesRouter || from.type === 'router' || to.type === 'router') {
      if (item.raw.transport === 'rdma') {
        item.fail(
          `"${from.name}" and "${to.name}" are on different networks: RDMA does not cross a router, use transport "ip"`,
        );
      }
      transport = 'ip';
    }
    const { messageBytes } = flows;
    return { from, to, pattern, job, transport, messageBytes, limit, startS, durationS };
  });
}
