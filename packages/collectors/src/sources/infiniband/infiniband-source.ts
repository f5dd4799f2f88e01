import { infinibandDataRateGbps } from '@fabscope/topology';
import { errorCountersFrom } from '../../fabric/error-counters.ts';
import type {
  FabricSnapshot,
  FabricSource,
  PortErrorCounters,
  PortSample,
  TargetResult,
} from '../../fabric/port-sample.ts';
import { queryTarget } from '../../fabric/port-sample.ts';
import { mapBounded, runTool } from '../run-tool.ts';
import { type IbPort, IbPortMap } from './ib-discovery.ts';
import {
  type IbPortReader,
  type IbPortReaderOptions,
  type IbPortReading,
  openIbPortReader,
} from './ib-port-reader.ts';
import { BASIC_WIDTHS, type PerfqueryPort, parsePerfquery } from './perfquery.ts';

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
}

const NAME_OF_SPEED = /^(SDR|DDR|QDR|FDR10|FDR|EDR|HDR|NDR|XDR)$/;

/** `ibnetdiscover -p` arguments; fixed. */
export const IBNETDISCOVER_ARGS = ['-p'] as const;

/**
 * `perfquery` arguments for one node's ports by LID (no SA: it works with the subnet manager
 * down): PortCountersExtended (`-x`: data and packets) or PortCounters (errors and XmitWait), one
 * block per port (`-l`). Never `-r`/`-R`: other tools rely on the counters.
 */
export function perfqueryArgs(lid: number, ports: readonly number[], extended: boolean): string[] {
  return [...(extended ? ['-x'] : []), '-l', String(lid), ports.join(',')];
}

/** PortState Active (IBA 14.2.5.6 PortInfo): the only state in which a link carries data. */
const PORT_ACTIVE = 4;

/**
 * A live InfiniBand subnet read with its own management interfaces: `ibnetdiscover -p` finds every
 * switch and CA port, its LID and its cable (names are the NodeDescriptions); then every port once
 * known to be cabled — switch and host ports alike — is read by LID: PortInfo (state, width,
 * speed), PortCounters (errors, XmitWait) and PortCountersExtended (64-bit data and packets). A
 * cable that goes down stays in the answer with `linkUp: false` (its far end as last seen); a port
 * never cabled is not there. Rates are against the data rate after encoding.
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
  const env = options.env;
  const cwd = options.cwd;
  const map = new IbPortMap();
  let mad: IbPortReader | null = null;
  let rediscover = true;
  const lastUp = new Map<string, boolean>();

  async function discover(signal: AbortSignal): Promise<void> {
    map.update(
      await runTool(ibnetdiscover, IBNETDISCOVER_ARGS, { timeoutMs: discoverTimeoutMs, signal, env, cwd }),
    );
    rediscover = false;
  }

  async function readMad(ports: readonly IbPort[], signal: AbortSignal) {
    mad ??= openIbPortReader({ ...options.madReader, env: { ...options.madReader?.env, ...env } });
    const sweep = await mad.read(
      ports.map((p) => ({ lid: p.lid, port: p.port })),
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

  async function readPerfquery(ports: readonly IbPort[], signal: AbortSignal) {
    const byNode = new Map<string, { lid: number; indexes: number[] }>();
    ports.forEach((p, i) => {
      // A CA's ports each have their own LID; a switch's share its port 0's.
      const key = p.nodeType === 'switch' ? p.nodeGuid : `${p.nodeGuid}/${p.lid}`;
      const entry = byNode.get(key) ?? { lid: p.lid, indexes: [] };
      entry.indexes.push(i);
      byNode.set(key, entry);
    });
    const readings: IbPortReading[] = ports.map((p) => ({
      ...EMPTY_READING,
      // perfquery reads no PortInfo: the state is what this sweep's discovery saw.
      portState: p.cabledNow ? PORT_ACTIVE : 1,
    }));
    const started = Date.now();
    const results = await mapBounded([...byNode], concurrency, ([key, { lid, indexes }]) =>
      queryTarget(
        key.split('/')[0] as string,
        async () => {
          const numbers = indexes.map((i) => (ports[i] as IbPort).port);
          const [extended, basic] = await Promise.all(
            [true, false].map(async (x) =>
              parsePerfquery(
                await runTool(perfquery, perfqueryArgs(lid, numbers, x), { timeoutMs, signal, env, cwd }),
              ),
            ),
          );
          for (const block of [...(extended ?? []), ...(basic ?? [])]) {
            const i = indexes.find((k) => (ports[k] as IbPort).port === block.port);
            if (i === undefined) continue;
            const r = readings[i] as IbPortReading;
            if (block.extended) {
              r.transmitBytes = block.transmitBytes;
              r.receiveBytes = block.receiveBytes;
              r.transmitPackets = block.transmitPackets;
              r.receivePackets = block.receivePackets;
            } else {
              r.transmitWaitTicks = block.transmitWait;
              const saturated = new Set(block.saturated);
              r.errors = Object.fromEntries(
                Object.entries(block.counters)
                  .filter(([name]) => !saturated.has(name))
                  .map(([name, v]) => [name, Number(v)]),
              ) as IbPortReading['errors'];
            }
          }
        },
        undefined,
      ),
    );
    return {
      readings,
      readAtMs: (started + Date.now()) / 2,
      targets: results.map((r) => r.result),
      mads: undefined,
    };
  }

  return {
    name: `infiniband:${fabric}`,
    readerKind,
    async read(signal): Promise<FabricSnapshot> {
      const due = map.discoveredAtMs === null || Date.now() - map.discoveredAtMs >= rediscoverMs;
      // perfquery reads no port state: discovery is its state, every sweep.
      if (rediscover || due || readerKind === 'perfquery') await discover(signal);
      const ports = map.list().filter((p) => p.lid > 0);
      const read = readerKind === 'mad' ? await readMad(ports, signal) : await readPerfquery(ports, signal);
      const stateOf = new Map(
        ports.map((p, i) => [`${p.nodeGuid}/${p.port}`, read.readings[i]?.portState ?? null]),
      );
      const samples = ports.map((p, i) =>
        portSample(
          p,
          read.readings[i] as IbPortReading,
          p.remote ? (stateOf.get(`${p.remote.nodeGuid}/${p.remote.portNumber}`) ?? null) : null,
        ),
      );
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

const EMPTY_READING: IbPortReading = {
  portState: null,
  physicalState: null,
  linkWidthActive: null,
  linkSpeedActive: null,
  transmitBytes: null,
  receiveBytes: null,
  transmitPackets: null,
  receivePackets: null,
  transmitWaitTicks: null,
  errors: null,
};

const lanesOf = (port: IbPort, reading: IbPortReading) =>
  reading.linkWidthActive ?? (port.width ? Number.parseInt(port.width, 10) : Number.NaN);

/**
 * Length of one PortXmitWait tick. The IBTA counts it in symbol times — the time one byte takes on
 * one lane (4 ns at SDR) — times PortSamplesControl.Tick + 1; in one symbol time the port moves one
 * byte per lane. fabscope takes Tick = 0 (the base interval), so a tick is `lanes` bytes at the
 * port's data rate. Vendors use other multipliers (NVIDIA's ibdiagnet manual: Switch-IB reports
 * Tick 31, Quantum counts every 8 bytes); reading PortSamplesControl per device is not done yet.
 */
export function xmitWaitTickSeconds(lanes: number, dataBytesPerSecond: number): number {
  return Number.isFinite(lanes) && lanes > 0 && dataBytesPerSecond > 0
    ? lanes / dataBytesPerSecond
    : Number.NaN;
}

/** Data rate (bytes/s) of the port: the active width × speed it reports, else what discovery saw. */
function dataBytesPerSecond(port: IbPort, reading: IbPortReading): number {
  const lanes = lanesOf(port, reading);
  const speed = reading.linkSpeedActive ?? port.speed ?? '';
  const gbps = NAME_OF_SPEED.test(speed) ? infinibandDataRateGbps(lanes, speed) : undefined;
  return gbps === undefined || !Number.isFinite(gbps) ? Number.NaN : (gbps * 1e9) / 8;
}

const big = (v: bigint | null) => (v === null ? Number.NaN : Number(v));

/**
 * One port's sample; a counter not read is NaN (unknown), never 0. Its link is up when its PortInfo
 * says Active; when PortInfo did not answer, the far end's state in the same sweep decides (after a
 * cable is pulled, MADs to the far switch often fail until the SM re-routes around it, and a link is
 * down when either end says so), then whether discovery last saw the cable.
 */
export function portSample(port: IbPort, reading: IbPortReading, farEnd: number | null = null): PortSample {
  const rate = dataBytesPerSecond(port, reading);
  const state = reading.portState ?? farEnd;
  return {
    nodeGuid: port.nodeGuid,
    nodeName: port.nodeName,
    nodeType: port.nodeType,
    portNumber: port.port,
    lid: port.lid,
    rateBytesPerSecond: rate,
    linkUp: state === null ? port.cabledNow : state === PORT_ACTIVE,
    remote: port.remote,
    transmitBytes: big(reading.transmitBytes),
    receiveBytes: big(reading.receiveBytes),
    transmitPackets: big(reading.transmitPackets),
    receivePackets: big(reading.receivePackets),
    transmitWaitTicks: big(reading.transmitWaitTicks),
    transmitWaitTickSeconds: xmitWaitTickSeconds(lanesOf(port, reading), rate),
    ...(reading.errors ? { errors: ibErrors(reading.errors) } : {}),
  };
}

/**
 * PortCounters' error counters by their perfquery names, as a MAD read them. A basic (16/8/4-bit)
 * counter stuck at its maximum has saturated: what it counts since is unknown, so it is left out,
 * not frozen.
 */
export function ibErrors(counters: Readonly<Record<string, number>>): PortErrorCounters {
  return errorsByPerfqueryName((name) => {
    const v = counters[name];
    const width = BASIC_WIDTHS[name];
    if (v === undefined) return undefined;
    return width !== undefined && v === 2 ** width - 1 ? undefined : v;
  });
}

/** A perfquery block's error counters; those its parser found saturated are left out. */
export function perfqueryErrors(block: PerfqueryPort): PortErrorCounters {
  const saturated = new Set(block.saturated);
  return errorsByPerfqueryName((name) => {
    const v = block.counters[name];
    return v === undefined || saturated.has(name) ? undefined : Number(v);
  });
}

function errorsByPerfqueryName(lookup: (name: string) => number | undefined): PortErrorCounters {
  return errorCountersFrom((spec) => (spec.perfquery ? [spec.perfquery] : undefined), lookup);
}
