import { type FlowInfo, TRAFFIC_PATTERNS, type TrafficPattern } from '@fabscope/contracts';
import {
  type CollectivePattern,
  collectivePairs,
  type Fabric,
  type FabricNode,
  PatternError,
  patternHosts,
} from '@fabscope/topology';
import type { Networks } from './networks.ts';
import {
  IP_STREAM_LIMIT_BYTES_PER_SECOND,
  IPERF_DEFAULT_WRITE_BYTES,
  STORAGE_DEFAULT_IO_BYTES,
  storageStreamLimit,
  type Transport,
} from './transport.ts';
import { parseDuration, parseRate, parseSize, QuantityError } from './units.ts';

/** The traffic patterns a request may name (the contract's list). */
export const PATTERNS = TRAFFIC_PATTERNS;
export type Pattern = TrafficPattern;

/** Options every traffic item takes (numbers in s, bytes, bytes/s; or strings with units). */
export interface TrafficCommon {
  /** Seconds from now before the flows start. Default 0. */
  start?: number | string;
  /** Seconds the flows run; default until stopped. */
  duration?: number | string;
  /** Message size (bytes); default large messages (RDMA) or 128 KiB writes (iperf). */
  messageSize?: number | string;
  /** Bytes/s each flow asks for; default as fast as its path allows. */
  demand?: number | string;
  /** Default `rdma`, `ip` for iperf and for flows that cross a router. */
  transport?: Transport;
  /** Hosts a collective pattern runs on; default every host of the main network. */
  hosts?: string[];
  /** The job the flows belong to (Slurm's job name); default the request's, else a generated one. */
  job?: string;
}

export type TrafficItem = TrafficCommon &
  (
    | { pattern: 'pairs'; pairs: [string, string][] }
    | { pattern: 'shift'; k: number }
    | { pattern: 'permutation'; seed?: number }
    | { pattern: 'all-to-all' }
    | { pattern: 'incast'; to: string; from?: string[] }
    | { pattern: 'bisection' }
    | { pattern: 'iperf'; from: string; to: string; streams?: number }
    | {
        pattern: 'storage';
        server: string;
        clients?: string[];
        op: 'read' | 'write';
        ioSize?: number | string;
        jobs?: number;
      }
  );

/** `POST /v1/flows` body: one traffic item, or several under `items` (with a job for all of them). */
export type StartFlowsRequest = TrafficItem | { items: TrafficItem[]; job?: string };

export type { FlowInfo };

/** A traffic request the emulator refuses; the message says why. */
export class TrafficError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TrafficError';
  }
}

/** One flow to start, resolved against the fabric. */
export interface FlowSpec {
  from: FabricNode;
  to: FabricNode;
  pattern: Pattern;
  /** Named in the item or request; undefined: the emulator names the request's job. */
  job: string | undefined;
  transport: Transport;
  messageBytes: number | null;
  /** Payload bytes/s: the lowest of demand and per-stream limits; Infinity when unlimited. */
  limit: number;
  startS: number;
  durationS: number;
}

const COMMON_KEYS = ['pattern', 'start', 'duration', 'messageSize', 'demand', 'transport', 'hosts', 'job'];

/** Longest job name taken (Slurm allows more; nobody reads more on a dashboard). */
export const MAX_JOB_NAME_LENGTH = 128;

/** The job name of an item or request, checked; undefined when none is given. */
function jobName(value: unknown, fail: (message: string) => never): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || value.trim() === '' || value.length > MAX_JOB_NAME_LENGTH) {
    return fail(`job must be a non-empty name of at most ${MAX_JOB_NAME_LENGTH} characters`);
  }
  // Control characters would break the text outputs (logs, Prometheus labels) that show job names.
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    if (code < 0x20 || code === 0x7f) return fail('job must not contain control characters');
  }
  return value;
}
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

/**
 * Checks a traffic request (parsed JSON) and expands its patterns into flows; nothing starts
 * unless every item is valid. `defaultSeed` seeds `permutation` when the item gives no seed.
 */
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

function expandItem(
  fabric: Fabric,
  networks: Networks,
  raw: unknown,
  defaultSeed: number,
  where: string,
): FlowSpec[] {
  const at = (field: string) => (where ? `${where}.${field}` : field);
  const fail = (message: string): never => {
    throw new TrafficError(where ? `${where}: ${message}` : message);
  };
  if (!isObject(raw)) return fail('a traffic item must be a JSON object with a pattern');
  const pattern = raw.pattern as Pattern;
  if (!PATTERNS.includes(pattern)) {
    return fail(
      `unknown pattern ${JSON.stringify(raw.pattern)}; known: ${PATTERNS.map((p) => `"${p}"`).join(', ')}`,
    );
  }
  for (const key of Object.keys(raw)) {
    if (!COMMON_KEYS.includes(key) && !PATTERN_KEYS[pattern].includes(key)) {
      fail(`unknown field "${key}" for pattern "${pattern}"`);
    }
  }
  const quantity = <T>(read: () => T): T => {
    try {
      return read();
    } catch (error) {
      if (error instanceof QuantityError) return fail(error.message);
      throw error;
    }
  };
  const startS = raw.start === undefined ? 0 : quantity(() => parseDuration(at('start'), raw.start));
  const durationS =
    raw.duration === undefined
      ? Number.POSITIVE_INFINITY
      : quantity(() => parseDuration(at('duration'), raw.duration));
  if (durationS === 0) fail('duration must be > 0');
  const demand =
    raw.demand === undefined ? Number.POSITIVE_INFINITY : quantity(() => parseRate(at('demand'), raw.demand));
  let messageBytes: number | null =
    raw.messageSize === undefined ? null : quantity(() => parseSize(at('messageSize'), raw.messageSize));
  const job = jobName(raw.job, fail);
  if (raw.transport !== undefined && raw.transport !== 'rdma' && raw.transport !== 'ip') {
    fail(`transport must be "rdma" or "ip", got ${JSON.stringify(raw.transport)}`);
  }

  const node = (name: unknown, field: string): FabricNode => {
    if (typeof name !== 'string') return fail(`${field} must be a node name`);
    const found = fabric.nodeByName.get(name);
    if (!found) return fail(`${field}: unknown node "${name}"`);
    if (found.type === 'switch') return fail(`${field}: "${name}" is a switch, not a host`);
    return found;
  };
  const nodeList = (value: unknown, field: string): FabricNode[] => {
    if (!Array.isArray(value)) return fail(`${field} must be an array of host names`);
    if (value.length === 0) return fail(`${field} is empty`);
    const list = value.map((name, i) => node(name, `${field}[${i}]`));
    if (new Set(list).size !== list.length) fail(`${field} names a host twice`);
    return list;
  };
  // Collective patterns range over the hosts in LID order, as `fabscope analyze` does.
  const hosts = (): FabricNode[] => {
    if (raw.hosts !== undefined) return nodeList(raw.hosts, 'hosts');
    const main = networks.mainNetwork();
    return patternHosts(fabric).filter((h) => networks.networkOf[h.index] === main);
  };
  const collective = (list: FabricNode[], of: CollectivePattern): [FabricNode, FabricNode][] => {
    try {
      return collectivePairs(list, of);
    } catch (error) {
      if (error instanceof PatternError) return fail(error.message);
      throw error;
    }
  };
  const count = (value: unknown, field: string, fallback: number, min = 1): number => {
    if (value === undefined) return fallback;
    if (typeof value !== 'number' || !Number.isInteger(value) || value < min) {
      return fail(`${field} must be an integer ≥ ${min}, got ${JSON.stringify(value)}`);
    }
    return value;
  };

  let pairs: [FabricNode, FabricNode][] = [];
  let transport: Transport = raw.transport === 'ip' ? 'ip' : 'rdma';
  let streamLimit = Number.POSITIVE_INFINITY;
  switch (pattern) {
    case 'pairs': {
      const list = raw.pairs;
      if (!Array.isArray(list)) return fail('pairs must be an array of [from, to] node names');
      if (list.length === 0) return fail('pairs is empty: give at least one [from, to] pair');
      pairs = list.map((pair: unknown, i): [FabricNode, FabricNode] => {
        if (
          !Array.isArray(pair) ||
          pair.length !== 2 ||
          typeof pair[0] !== 'string' ||
          typeof pair[1] !== 'string'
        ) {
          return fail(`pairs[${i}] must be [from, to] with two node names, got ${JSON.stringify(pair)}`);
        }
        return [node(pair[0], `pairs[${i}]`), node(pair[1], `pairs[${i}]`)];
      });
      break;
    }
    case 'shift': {
      const list = hosts();
      const k = raw.k;
      if (typeof k !== 'number' || !Number.isInteger(k) || k % list.length === 0) {
        return fail(
          `k must be an integer that is not a multiple of the ${list.length} hosts, got ${JSON.stringify(k)}`,
        );
      }
      pairs = collective(list, { kind: 'shift', k });
      break;
    }
    case 'permutation': {
      const list = hosts();
      const seed = count(raw.seed, 'seed', defaultSeed, 0);
      pairs = collective(list, { kind: 'permutation', seed });
      break;
    }
    case 'all-to-all':
      pairs = collective(hosts(), { kind: 'all-to-all' });
      break;
    case 'incast': {
      const to = node(raw.to, 'to');
      const from = raw.from === undefined ? hosts().filter((h) => h !== to) : nodeList(raw.from, 'from');
      pairs = from.map((h) => [h, to]);
      if (pairs.length === 0) return fail('incast needs at least one sender');
      break;
    }
    case 'bisection':
      pairs = collective(hosts(), { kind: 'bisection' });
      break;
    case 'iperf': {
      const from = node(raw.from, 'from');
      const to = node(raw.to, 'to');
      const streams = count(raw.streams, 'streams', 1);
      if (streams > 1024) fail('streams must be at most 1024');
      transport = raw.transport === 'rdma' ? 'rdma' : 'ip';
      messageBytes ??= IPERF_DEFAULT_WRITE_BYTES;
      streamLimit = transport === 'ip' ? IP_STREAM_LIMIT_BYTES_PER_SECOND : streamLimit;
      pairs = Array.from({ length: streams }, (): [FabricNode, FabricNode] => [from, to]);
      break;
    }
    case 'storage': {
      const server = node(raw.server, 'server');
      if (raw.op !== 'read' && raw.op !== 'write')
        return fail(`op must be "read" or "write", got ${JSON.stringify(raw.op)}`);
      const clients =
        raw.clients === undefined
          ? networks.hostsOf(networks.networkOf[server.index] as number).filter((h) => h !== server)
          : nodeList(raw.clients, 'clients');
      if (clients.length === 0) return fail('storage needs at least one client');
      const jobs = count(raw.jobs, 'jobs', 1);
      if (messageBytes !== null && raw.ioSize !== undefined) fail('give ioSize or messageSize, not both');
      const io =
        raw.ioSize === undefined
          ? (messageBytes ?? STORAGE_DEFAULT_IO_BYTES)
          : quantity(() => parseSize(at('ioSize'), raw.ioSize));
      messageBytes = io;
      for (const client of clients) {
        for (let j = 0; j < jobs; j++) pairs.push(raw.op === 'read' ? [server, client] : [client, server]);
      }
      const rate = Math.min(...pairs.map(([a]) => a.ports.find((p) => p && p.link >= 0)?.rateGbps ?? 0));
      streamLimit = storageStreamLimit(io, rate);
      break;
    }
  }
  const specs: FlowSpec[] = [];
  pairs.forEach(([from, to], i) => {
    if (from === to) {
      fail(
        pattern === 'pairs'
          ? `pairs[${i}]: "${from.name}" cannot send to itself`
          : `"${from.name}" cannot send to itself`,
      );
    }
    const crossesRouter = networks.networkOf[from.index] !== networks.networkOf[to.index];
    let flowTransport = transport;
    if (crossesRouter || from.type === 'router' || to.type === 'router') {
      if (raw.transport === 'rdma') {
        fail(
          `"${from.name}" and "${to.name}" are on different networks: RDMA does not cross a router, use transport "ip"`,
        );
      }
      flowTransport = 'ip';
    }
    specs.push({
      from,
      to,
      pattern,
      job,
      transport: flowTransport,
      messageBytes,
      limit: Math.min(demand, streamLimit),
      startS,
      durationS,
    });
  });
  return specs;
}
