import type { PortCountersDocument } from '@fabscope/contracts/ports';
import type { Fabric } from '@fabscope/topology';
import type { Emulator } from '../emulator.ts';
import type { EthernetPortCounters } from '../lossless-ports.ts';
import { SysfsFiles } from '../sysfs/atomic-files.ts';
import { losslessCarriedOn, losslessMoved, withLosslessTraffic } from './lossless-traffic.ts';
import { type PortTraffic, switchRecording } from './snmprec.ts';

/** Each port's traffic (`node/port`): counters of `after`, rates over the gap since `before` (none: still). */
export function trafficBetween(
  before: PortCountersDocument | null,
  after: PortCountersDocument,
): Map<string, PortTraffic> {
  const unit = BigInt(after.dataUnitBytes);
  const seconds = before ? (after.timeMs - before.timeMs) / 1000 : 0;
  const earlier = new Map(before?.ports.map((p) => [`${p.nodeName}/${p.portNumber}`, p.counters]) ?? []);
  const traffic = new Map<string, PortTraffic>();
  for (const p of after.ports) {
    const key = `${p.nodeName}/${p.portNumber}`;
    const was = earlier.get(key);
    const c = p.counters;
    const value = (name: keyof typeof c, scale = 1n) => BigInt(c[name] ?? '0') * scale;
    // A counter that went back (a port cleared or a switch restarted) has no rate over the gap.
    const rate = (name: 'XmitData' | 'RcvData' | 'XmitPkts' | 'RcvPkts', scale = 1n) => {
      if (!was || !(seconds > 0)) return 0;
      const delta = value(name, scale) - BigInt(was[name]) * scale;
      return delta > 0n ? Number(delta) / seconds : 0;
    };
    traffic.set(key, {
      outOctets: value('XmitData', unit),
      inOctets: value('RcvData', unit),
      outPackets: value('XmitPkts'),
      inPackets: value('RcvPkts'),
      outOctetsRate: rate('XmitData', unit),
      inOctetsRate: rate('RcvData', unit),
      outPacketsRate: rate('XmitPkts'),
      inPacketsRate: rate('RcvPkts'),
      inErrors: value('RcvErrors'),
      outDiscards: value('XmitDiscards'),
      up: p.linkState === 'active',
    });
  }
  return traffic;
}

/** Whether a recording of `next` would tell a different story than `written`: a rate moved or a link changed. */
export function trafficChanged(
  written: ReadonlyMap<string, PortTraffic> | null,
  next: ReadonlyMap<string, PortTraffic>,
  tolerance: number,
): boolean {
  if (!written || written.size !== next.size) return true;
  const moved = (a: number, b: number) => Math.abs(a - b) > tolerance * Math.max(a, b);
  for (const [key, t] of next) {
    const w = written.get(key);
    if (!w || w.up !== t.up) return true;
    if (moved(w.outOctetsRate, t.outOctetsRate) || moved(w.inOctetsRate, t.inOctetsRate)) return true;
    if (losslessMoved(w.lossless, t.lossless, tolerance)) return true;
  }
  return false;
}

/**
 * `next`'s counters, none below where the recording `written` at `writtenAtMs` has carried them by `atMs`: its
 * rate ran on past a change, and an agent's counter never goes back without a restart.
 */
export function carriedOn(
  written: ReadonlyMap<string, PortTraffic> | null,
  writtenAtMs: number,
  next: ReadonlyMap<string, PortTraffic>,
  atMs: number,
): Map<string, PortTraffic> {
  const seconds = Math.max(0, (atMs - writtenAtMs) / 1000);
  const reached = (value: bigint, rate: number) => value + BigInt(Math.round(rate * seconds));
  const max = (a: bigint, b: bigint) => (a > b ? a : b);
  const carried = new Map<string, PortTraffic>();
  for (const [key, t] of next) {
    const w = written?.get(key);
    carried.set(
      key,
      w
        ? {
            ...t,
            outOctets: max(t.outOctets, reached(w.outOctets, w.outOctetsRate)),
            inOctets: max(t.inOctets, reached(w.inOctets, w.inOctetsRate)),
            outPackets: max(t.outPackets, reached(w.outPackets, w.outPacketsRate)),
            inPackets: max(t.inPackets, reached(w.inPackets, w.inPacketsRate)),
            ...(t.lossless ? { lossless: losslessCarriedOn(w.lossless, t.lossless, seconds) } : {}),
          }
        : t,
    );
  }
  return carried;
}

/** The switches' recordings, one file a switch named `<switch>.snmprec` (its community); their names. */
export function writeRecordings(
  fabric: Fabric,
  dir: string,
  traffic: ReadonlyMap<string, PortTraffic>,
  atMs: number,
  bootMs: number,
): string[] {
  const files = new SysfsFiles(dir);
  const written: string[] = [];
  for (const node of fabric.nodes) {
    if (node.type !== 'switch') continue;
    const text = switchRecording({
      fabric,
      node,
      traffic: (port) => traffic.get(`${node.name}/${port}`),
      atMs,
      bootMs,
    });
    files.put(`${node.name}.snmprec`, text);
    written.push(node.name);
  }
  return written;
}

/** A targets file for fabscope's SNMP source: each switch at `address`, its community its name. */
export function recordingTargets(fabric: Fabric, address: string): string {
  const lines = fabric.nodes.filter((n) => n.type === 'switch').map((n) => `${address} v2c ${n.name}`);
  return `${lines.join('\n')}\n`;
}

export interface SnmpRecorderOptions {
  dir: string;
  /** How often the emulator's counters are looked at (ms). Default 1000. */
  intervalMs?: number;
  /** A relative change of a rate that rewrites the recordings. Default 0.001. */
  tolerance?: number;
  /** After the recordings were rewritten (snmpsimd caches a numeric value's rate: it must start again). */
  onRewrite?: () => void;
}

export interface SnmpRecorder {
  /** Looks at the counters now; true when the recordings were rewritten. */
  recordNow(): boolean;
  stop(): void;
}

/**
 * The emulator's switches as snmpsim recordings in `dir`, kept true to its traffic: rewritten when a rate moves
 * or a link changes state, the counters then going on from where they were.
 */
export function startSnmpRecorder(emulator: Emulator, options: SnmpRecorderOptions): SnmpRecorder {
  const { dir, intervalMs = 1000, tolerance = 0.001 } = options;
  if (!(intervalMs >= 100)) throw new RangeError(`intervalMs must be ≥ 100, got ${intervalMs}`);
  const bootMs = emulator.nowMs();
  let before: PortCountersDocument | null = null;
  let losslessBefore: EthernetPortCounters[] | null = null;
  let written: Map<string, PortTraffic> | null = null;
  let writtenAtMs = bootMs;
  const recordNow = () => {
    const after = emulator.portCounters();
    const lossless = emulator.ethernetPortCounters();
    const seconds = before ? (after.timeMs - before.timeMs) / 1000 : 0;
    const measured = withLosslessTraffic(trafficBetween(before, after), losslessBefore, lossless, seconds);
    before = after;
    losslessBefore = lossless;
    if (!trafficChanged(written, measured, tolerance)) return false;
    const traffic = carriedOn(written, writtenAtMs, measured, after.timeMs);
    writeRecordings(emulator.fabric, dir, traffic, after.timeMs, bootMs);
    written = traffic;
    writtenAtMs = after.timeMs;
    options.onRewrite?.();
    return true;
  };
  recordNow();
  const timer = setInterval(() => {
    try {
      recordNow();
    } catch (error) {
      process.stderr.write(`fabscope emulator: writing ${dir} failed: ${(error as Error).message}\n`);
    }
  }, intervalMs);
  timer.unref();
  return { recordNow, stop: () => clearInterval(timer) };
}
