import { errorCountersFrom } from './error-counters.ts';
import type { FabricSnapshot, FabricSource, PortSample } from './port-sample.ts';

interface EmulatorPort {
  nodeGuid: string;
  nodeName: string;
  nodeType: PortSample['nodeType'];
  portNumber: number;
  lid: number;
  rateGbps: number;
  linkState: 'active' | 'down';
  remote: PortSample['remote'];
  /** The data counters always; the error counters and gauges its fabric has (the rest absent). */
  counters: Record<'XmitData' | 'RcvData' | 'XmitPkts' | 'RcvPkts' | 'XmitWait', string> &
    Partial<Record<string, string>>;
}

interface EmulatorPortsDocument {
  fabric: string;
  fabricType: string;
  timeMs: number;
  dataUnitBytes: number;
  ports: EmulatorPort[];
}

/**
 * Native counter (decimal string) × unit → bytes, exact: in doubles below 10^15 (× 8 stays under
 * 2^53), else in BigInt before the float conversion.
 */
function toBytes(value: string, unitBytes: bigint): number {
  return value.length <= 15 ? Number(value) * Number(unitBytes) : Number(BigInt(value) * unitBytes);
}

/** How far the emulator's clock may be from the wall clock and still stamp its counters. */
const WALL_CLOCK_TOLERANCE_MS = 60_000;

/**
 * The emulator's `/v1/ports` document as a snapshot. `wallClockMs` (now, when read live): if the
 * emulator's clock runs on wall time (the demo's does), its time stamps the counters; an emulator
 * stepped by hand (tests from t = 0) leaves the stamping to the scraper.
 */
export function portSamplesFromEmulator(doc: EmulatorPortsDocument, wallClockMs?: number): FabricSnapshot {
  if (!Array.isArray(doc.ports) || !Number.isInteger(doc.dataUnitBytes) || doc.dataUnitBytes < 1) {
    throw new Error('emulator /v1/ports answer lacks ports or dataUnitBytes');
  }
  const unit = BigInt(doc.dataUnitBytes);
  const ports = doc.ports.map(
    (p): PortSample => ({
      nodeGuid: p.nodeGuid,
      nodeName: p.nodeName,
      nodeType: p.nodeType,
      portNumber: p.portNumber,
      lid: p.lid,
      rateBytesPerSecond: (p.rateGbps * 1e9) / 8,
      linkUp: p.linkState === 'active',
      remote: p.remote,
      transmitBytes: toBytes(p.counters.XmitData, unit),
      receiveBytes: toBytes(p.counters.RcvData, unit),
      transmitPackets: Number(p.counters.XmitPkts),
      receivePackets: Number(p.counters.RcvPkts),
      transmitWaitTicks: Number(p.counters.XmitWait),
      // The emulator's XmitWait tick is the time to send one data unit at line rate.
      transmitWaitTickSeconds: (doc.dataUnitBytes * 8) / (p.rateGbps * 1e9),
      errors: errorCountersFrom(
        (spec) => (spec.emulator === undefined ? undefined : [spec.emulator]),
        (name) => {
          const v = p.counters[name];
          return v === undefined ? undefined : Number(v);
        },
      ),
    }),
  );
  const onWallClock =
    wallClockMs !== undefined &&
    Number.isFinite(doc.timeMs) &&
    Math.abs(doc.timeMs - wallClockMs) <= WALL_CLOCK_TOLERANCE_MS;
  return {
    fabric: doc.fabric,
    fabricType: doc.fabricType,
    ports,
    ...(onWallClock ? { countersReadAtMs: Math.round(doc.timeMs) } : {}),
  };
}

/**
 * Whether a fetch failed on a kept-alive connection the server had closed meanwhile, before any
 * answer: the server closes an idle connection after its keep-alive timeout (5 s in Node), and a
 * process whose event loop was busy longer than that (parsing a 27,648-host read) sends its next
 * request on the closed socket — ECONNRESET at once. Asking again on a new connection is safe (a GET).
 */
function closedConnection(error: unknown): boolean {
  const cause = (error as { cause?: { code?: string } } | null)?.cause;
  return error instanceof TypeError && (cause?.code === 'ECONNRESET' || cause?.code === 'UND_ERR_SOCKET');
}

/** Reads the emulator's switch- and adapter-port endpoint, as a fabric agent polls a real fabric. */
export function emulatorSource(baseUrl: string): FabricSource {
  const url = new URL('/v1/ports', baseUrl).toString();
  return {
    name: url,
    async read(signal) {
      const response = await fetch(url, { signal }).catch((error: unknown) => {
        if (!closedConnection(error) || signal.aborted) throw error;
        return fetch(url, { signal });
      });
      if (!response.ok) throw new Error(`${url} answered HTTP ${response.status}`);
      return portSamplesFromEmulator((await response.json()) as EmulatorPortsDocument, Date.now());
    },
  };
}
