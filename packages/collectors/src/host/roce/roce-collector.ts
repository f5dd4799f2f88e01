import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  ROCE_COUNTERS,
  ROCE_PAUSE_SERIES,
  ROCE_UNKNOWN_SERIES,
  type RoceCounterField,
} from '@fabscope/contracts/metrics';
import { excerpt } from '@fabscope/topology';
import type { ExpositionWriter } from '../../exposition/writer.ts';
import { mapBounded, runTool } from '../../sources/run-tool.ts';
import { parseCounter, type TreeReader } from '../reader.ts';
import { type DeviceFilter, deviceSelected } from '../sysfs-infiniband.ts';
import { parseEthtoolStatistics } from './ethtool-stats.ts';
import {
  type PauseKind,
  pauseStatistic,
  ROCE_DRIVERS,
  type RoceDriver,
  roceDriverOf,
} from './roce-drivers.ts';

/** `ethtool -S <netdev>`'s output for a netdev (a process, or a recorded file in tests and the emulator). */
export type EthtoolStatistics = (netdev: string) => Promise<string>;

export const ETHTOOL_TIMEOUT_MS = 5000;
/** ethtool processes at once in one scrape. */
export const ETHTOOL_CONCURRENCY = 4;

/** Runs the real `ethtool -S` (no shell) through the project's tool runner. */
export const runEthtool: EthtoolStatistics = (netdev) =>
  runTool('ethtool', ['-S', netdev], { timeoutMs: ETHTOOL_TIMEOUT_MS });

/** Recorded `ethtool -S` outputs, one file per netdev in `dir` (the emulator writes `<host>/ethtool/<netdev>`). */
export function ethtoolFromFiles(dir: string): EthtoolStatistics {
  return (netdev) => {
    if (!/^[\w.:@-]+$/.test(netdev))
      return Promise.reject(new Error(`not a netdev name: "${excerpt(netdev)}"`));
    return readFile(join(dir, netdev), 'utf8');
  };
}

const HELP: Record<RoceCounterField, string> = {
  cnpSent:
    'Congestion notification packets sent by this port as the notification point (ECN-marked packets answered)',
  cnpHandled:
    'Congestion notification packets this port handled as the reaction point (its rate was reduced)',
  cnpIgnored: 'Congestion notification packets this port received and ignored as the reaction point',
  ecnMarkedReceived: 'RoCE packets received with an ECN congestion mark',
  outOfBuffer: 'Packets dropped because no receive buffer (WQE) was posted',
  outOfSequence: 'Packets received out of sequence',
  packetSequenceErrors: 'NAKs received for a packet sequence error',
  localAckTimeouts: 'Times a queue pair waited longer than its ACK timeout (and retransmitted)',
  rnrNakRetryErrors: 'Receiver-not-ready NAK retries exceeded',
  impliedNakSequenceErrors: 'Implied NAK sequence errors (an ACK with a later PSN than expected)',
  duplicateRequests: 'Duplicate requests received',
  adaptiveRetransmissions: 'Adaptive retransmissions',
  adaptiveRetransmissionTimeouts: 'Adaptive retransmission timeouts',
};

const PAUSE: Record<PauseKind, { name: string; help: string; scale: number }> = {
  frames: { name: ROCE_PAUSE_SERIES.frames, help: 'PFC pause frames, per priority', scale: 1 },
  durationMicroseconds: {
    name: ROCE_PAUSE_SERIES.durationSeconds,
    help: 'Time paused by PFC, per priority (rx: this port held back; tx: it held its peer back)',
    scale: 1e-6,
  },
  transitions: {
    name: ROCE_PAUSE_SERIES.transitions,
    help: 'PFC Xoff to Xon transitions, per priority',
    scale: 1,
  },
};

/** Reads one file alone: its counter, or why there is none. */
function readCounterFile(root: string, relative: string): { value: number } | { reason: string } {
  let text: string;
  try {
    text = readFileSync(join(root, relative), 'latin1').replace(/\s+$/, '');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'error';
    return { reason: code === 'ENOENT' ? 'absent (ENOENT)' : `unreadable (${code})` };
  }
  const value = parseCounter(text);
  return value === null ? { reason: `not a counter: "${excerpt(text, 40)}"` } : { value };
}

/** The netdev under an RDMA port: the port's `gid_attrs/ndevs/0`, else the device's `device/net/` entry. */
function netdevOf(reader: TreeReader, device: string, port: string): string | null {
  const base = `class/infiniband/${device}`;
  const ndev = reader.text(`${base}/ports/${port}/gid_attrs/ndevs/0`);
  if (ndev !== null && ndev !== '') return ndev;
  return reader.directories(`${base}/device/net`)[0] ?? null;
}

export interface RoceCollectOptions {
  filter: DeviceFilter;
  /** null: no pause counters (no ethtool on this host). */
  ethtool: EthtoolStatistics | null;
}

/**
 * RoCE ports (`link_layer` Ethernet) under `class/infiniband`: each hw_counters file the driver's table names read
 * on its own, and the netdev's per-priority pause from `ethtool -S`. What cannot be read is written as unknown
 * with its reason, costing that counter (or, for ethtool, that netdev's pause) and nothing else.
 */
export async function collectRoce(
  reader: TreeReader,
  out: ExpositionWriter,
  options: RoceCollectOptions,
): Promise<void> {
  const unknown = (labels: Record<string, string>, counter: string, reason: string) =>
    out.gauge(
      ROCE_UNKNOWN_SERIES,
      'A RoCE counter that could not be read this scrape, with why; always 1',
      { ...labels, counter, reason },
      1,
    );
  const ports: { device: string; port: string }[] = [];
  for (const device of reader.directories('class/infiniband')) {
    if (!deviceSelected(device, options.filter)) continue;
    for (const port of reader.directories(`class/infiniband/${device}/ports`)) {
      if (!/^\d+$/.test(port)) continue;
      const dir = `class/infiniband/${device}/ports/${port}`;
      if (reader.text(`${dir}/link_layer`) !== 'Ethernet') continue;
      const labels = { device, port };
      ports.push(labels);
      const driverName = roceDriverOf(device, reader.list(`${dir}/hw_counters`));
      const driver: RoceDriver | null = driverName ? ROCE_DRIVERS[driverName] : null;
      for (const [field, file] of Object.entries(driver?.hwCounters ?? {}) as [RoceCounterField, string][]) {
        const read = readCounterFile(reader.root, `${dir}/hw_counters/${file}`);
        if ('value' in read) out.counter(ROCE_COUNTERS[field], HELP[field], labels, read.value);
        else unknown(labels, `hw_counters/${file}`, read.reason);
      }
    }
  }
  const ethtool = options.ethtool;
  if (!ethtool) return;
  // A few at once, each netdev asked once (a bond under several ports), written in port order.
  const asked = new Map<string, Promise<Map<string, number>>>();
  const answers = await mapBounded(ports, ETHTOOL_CONCURRENCY, async (labels) => {
    const netdev = netdevOf(reader, labels.device, labels.port);
    if (netdev === null) return { netdev, reason: 'no netdev in gid_attrs/ndevs/0 or device/net/' };
    let answer = asked.get(netdev);
    if (!answer) {
      answer = ethtool(netdev).then(parseEthtoolStatistics);
      asked.set(netdev, answer);
    }
    try {
      return { netdev, stats: await answer };
    } catch (error) {
      return { netdev, reason: excerpt((error as Error).message, 160) };
    }
  });
  answers.forEach((answer, i) => {
    const labels = ports[i] as { device: string; port: string };
    if (answer.netdev === null) unknown(labels, 'ethtool -S', answer.reason as string);
    else if (!answer.stats)
      unknown({ ...labels, netdev: answer.netdev }, `ethtool -S ${answer.netdev}`, answer.reason as string);
    else writePause(out, { ...labels, netdev: answer.netdev }, answer.stats);
  });
}

function writePause(out: ExpositionWriter, labels: Record<string, string>, stats: Map<string, number>): void {
  for (const [name, value] of stats) {
    const stat = pauseStatistic(name);
    if (!stat) continue;
    const { name: family, help, scale } = PAUSE[stat.kind];
    out.counter(
      family,
      help,
      { ...labels, direction: stat.direction, priority: String(stat.priority) },
      value * scale,
    );
  }
}
