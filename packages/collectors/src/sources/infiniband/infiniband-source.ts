import { type IbLocalPort, ibPortArgs, ibPortName } from '@fabscope/contracts/names';
import type { FabricSnapshot, FabricSource, TargetResult } from '../../fabric/port-sample.ts';
import { runTool } from '../run-tool.ts';
import { CounterLedger } from './ib-counter-ledger.ts';
import { type IbPort, IbPortMap } from './ib-discovery.ts';
import { READER_PORT_ENV } from './ib-local-ports.ts';
import {
  type IbPortReader,
  type IbPortReaderOptions,
  type IbPortReading,
  openIbPortReader,
} from './ib-port-reader.ts';
import { portSample } from './ib-port-sample.ts';
import { answered, IbReachability } from './ib-reachability.ts';
import { EMPTY_READING, type PortReads, readPerfquery } from './perfquery-reader.ts';

/** How the counters are read: MADs through libibumad with many outstanding, or perfquery per node. */
export type InfinibandReaderKind = 'mad' | 'perfquery';

export interface InfinibandSourceOptions {
  fabric?: string;
  ibnetdiscover?: string;
  perfquery?: string;
  /** Added to the tools' environment: a simulated subnet's LD_PRELOAD and IBSIM_SOCKNAME; none on hardware. */
  env?: Readonly<Record<string, string>> | undefined;
  /** Working directory of the tools (the lab's `cwd`: its preload writes a simulated sysfs there). */
  cwd?: string | undefined;
  /**
   * The local port whose subnet is read (`ibnetdiscover` and `perfquery -C ca -P port`, `umad_open_port(ca, port)`);
   * absent: the first port of the first adapter, as the tools pick.
   */
  localPort?: IbLocalPort | undefined;
  /** Per-command timeout (perfquery). */
  timeoutMs?: number;
  /** ibnetdiscover sweeps the whole fabric: it gets its own, longer timeout. */
  discoverTimeoutMs?: number;
  /** perfquery processes at once (perfquery reader). */
  concurrency?: number;
  /** Default `mad`: PortInfo, PortCounters and PortCountersExtended of every port in one pipelined sweep. */
  reader?: InfinibandReaderKind;
  /** The MAD reader's own settings (its child's command, MADs outstanding, timeouts). */
  madReader?: IbPortReaderOptions;
  /** Discover again at least this often (default 60 s), and at the next read after a port changed state. */
  rediscoverMs?: number;
  /**
   * Clear narrow PortCounters (errors, XmitWait) before they saturate, as OpenSM's PerfMgr does, and count
   * across the clears (MAD reader only). Off by default: other tools and the SM read the same counters.
   */
  resetCounters?: boolean;
  /** Told of each port whose counters (perfquery names) a read cleared: a lab that writes them counts on from 0. */
  onCleared?: (port: IbPort, counters: readonly string[]) => void;
}

/** Reads every port by LID in one sweep of MADs; a node whose port failed is a failed target. */
async function readMad(mad: IbPortReader, ports: readonly IbPort[], signal: AbortSignal): Promise<PortReads> {
  const sweep = await mad.read(
    ports.map((p) => ({ lid: p.lid, port: p.port, switch: p.nodeType === 'switch' })),
    signal,
  );
  const failed = new Set<string>();
  sweep.readings.forEach((r, i) => {
    if (r.failure) failed.add((ports[i] as IbPort).nodeGuid);
  });
  const targets: TargetResult[] = [...new Set(ports.map((p) => p.nodeGuid))].map((guid) => ({
    target: guid,
    durationSeconds: sweep.durationSeconds,
    outcome: failed.has(guid) ? 'error' : 'ok',
  }));
  return {
    readings: sweep.readings,
    readAtMs: sweep.readAtMs,
    targets,
    mads: { sent: sweep.madsSent, retries: sweep.retries, failedPorts: sweep.failures },
  };
}

/**
 * The reads of `ports`, of those `reach` reads only (the others: nothing read, and why); true in
 * `unanswered` when a node read answered nothing.
 */
async function readReachable(
  ports: readonly IbPort[],
  reach: IbReachability,
  stateRead: boolean,
  readPorts: (ports: readonly IbPort[]) => Promise<PortReads>,
): Promise<PortReads & { unanswered: boolean }> {
  const readable = ports.filter((p) => reach.reads(p.nodeGuid));
  const read = await readPorts(readable);
  const nodes = new Map<string, boolean>();
  readable.forEach((p, i) => {
    const ok = nodes.get(p.nodeGuid) === true || answered(read.readings[i] as IbPortReading, stateRead);
    nodes.set(p.nodeGuid, ok);
  });
  const unanswered = reach.swept(nodes, Date.now());
  reach.retain(new Set(ports.map((p) => p.nodeGuid)));
  // Every port read (the usual case): the readings as they came, in the ports' order.
  if (readable.length === ports.length) return { ...read, unanswered };
  const readingOf = new Map(readable.map((p, i) => [p, read.readings[i] as IbPortReading]));
  const skipped = [...new Set(ports.filter((p) => !readingOf.has(p)).map((p) => p.nodeGuid))];
  return {
    ...read,
    readings: ports.map((p) => readingOf.get(p) ?? { ...EMPTY_READING, failure: reach.reason(p.nodeGuid) }),
    targets: [
      ...read.targets,
      ...skipped.map((target) => ({ target, durationSeconds: 0, outcome: 'error' as const })),
    ],
    unanswered,
  };
}

/**
 * A live InfiniBand subnet: `ibnetdiscover -p` finds the ports, LIDs and cables, then every port
 * once seen cabled is read by LID; a cable that goes down stays with `linkUp: false`.
 */
export function infinibandSource(options: InfinibandSourceOptions = {}): FabricSource & {
  close(): Promise<void>;
  readonly readerKind: InfinibandReaderKind;
} {
  const fabric = options.fabric ?? 'infiniband';
  const ibnetdiscover = options.ibnetdiscover ?? 'ibnetdiscover';
  const perfquery = options.perfquery ?? 'perfquery';
  const timeoutMs = options.timeoutMs ?? 5000;
  const discoverTimeoutMs = options.discoverTimeoutMs ?? 20_000;
  const concurrency = options.concurrency ?? 4;
  const rediscoverMs = options.rediscoverMs ?? 60_000;
  const readerKind: InfinibandReaderKind = options.reader ?? 'mad';
  const { env, cwd, localPort } = options;
  const ibnetdiscoverArgs = ['-p', ...ibPortArgs(localPort)];
  const map = new IbPortMap();
  let mad: IbPortReader | null = null;
  let rediscover = true;
  const lastUp = new Map<string, boolean>();
  const ledger = new CounterLedger();
  const reach = new IbReachability();

  const madReader = () =>
    (mad ??= openIbPortReader({
      ...options.madReader,
      env: {
        ...options.madReader?.env,
        ...env,
        ...(localPort ? { [READER_PORT_ENV]: ibPortName(localPort) } : {}),
      },
      resetCounters: options.resetCounters ?? options.madReader?.resetCounters ?? false,
    }));

  async function discover(signal: AbortSignal): Promise<void> {
    map.update(
      await runTool(ibnetdiscover, ibnetdiscoverArgs, { timeoutMs: discoverTimeoutMs, signal, env, cwd }),
    );
    rediscover = false;
    reach.discovered(map.foundNodes);
  }

  return {
    name: `infiniband:${fabric}`,
    readerKind,
    async read(signal): Promise<FabricSnapshot> {
      const due = map.discoveredAtMs === null || Date.now() - map.discoveredAtMs >= rediscoverMs;
      // perfquery reads no port state: discovery is its state, every sweep.
      if (rediscover || due || readerKind === 'perfquery') await discover(signal);
      const ports = map.list().filter((p) => p.lid > 0);
      const read = await readReachable(ports, reach, readerKind === 'mad', (some) =>
        readerKind === 'mad'
          ? readMad(madReader(), some, signal)
          : readPerfquery(some, signal, { perfquery, timeoutMs, concurrency, env, cwd, localPort }),
      );
      // A node that answered nothing: discovery says whether the subnet still has it.
      if (read.unanswered) rediscover = true;
      const stateOf = new Map(
        ports.map((p, i) => [`${p.nodeGuid}/${p.port}`, read.readings[i]?.portState ?? null]),
      );
      const samples = ports.map((p, i) => {
        const reading = read.readings[i] as IbPortReading;
        const far = p.remote ? (stateOf.get(`${p.remote.nodeGuid}/${p.remote.portNumber}`) ?? null) : null;
        const sample = portSample(p, reading, far);
        ledger.apply(`${p.nodeGuid}/${p.port}`, sample, reading, Math.round(read.readAtMs));
        if (reading.cleared.length > 0) options.onCleared?.(p, reading.cleared);
        return sample;
      });
      ledger.retain(stateOf);
      for (const s of samples) {
        const key = `${s.nodeGuid}/${s.portNumber}`;
        const before = lastUp.get(key);
        // A cable that came up may be a new or moved one: learn its far end at the next read.
        if (before !== undefined && before !== s.linkUp) rediscover = true;
        lastUp.set(key, s.linkUp);
      }
      return {
        fabric,
        fabricType: 'infiniband',
        ports: samples,
        countersReadAtMs: Math.round(read.readAtMs),
        targets: read.targets,
        ...(read.mads ? { mads: read.mads } : {}),
      };
    },
    async close() {
      await mad?.close();
      mad = null;
    },
  };
}
