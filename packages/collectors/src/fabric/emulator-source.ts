import { ARROW_STREAM_MEDIA_TYPE } from '@fabscope/contracts/media-types';
import {
  PORT_DATA_COUNTERS,
  PORTS_ARROW_FIXED_COLUMNS,
  PORTS_ARROW_LINK_UP,
  type PortCounterName,
  type PortCountersDocument,
} from '@fabscope/contracts/ports';
import { tableFromIPC } from '@uwdata/flechette';
import {
  ERROR_COUNTER_KEYS,
  ERROR_COUNTERS,
  type ErrorCounterKey,
  type ErrorCounterSpec,
  errorCountersFrom,
  type PortErrorCounters,
} from './error-counters.ts';
import type { FabricSnapshot, FabricSource, PortSample } from './port-sample.ts';

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
export function portSamplesFromEmulator(doc: PortCountersDocument, wallClockMs?: number): FabricSnapshot {
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
          const v = p.counters[name as PortCounterName];
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

/** A 64-bit counter (native units) × unit → bytes, exact as `toBytes` is. */
function bigToBytes(value: bigint, unitBytes: bigint): number {
  return value <= MAX_EXACT ? Number(value) * Number(unitBytes) : Number(value * unitBytes);
}
const MAX_EXACT = BigInt(Number.MAX_SAFE_INTEGER) / 8n;

/** The Arrow form's columns every port has (`GET /v1/ports?format=arrow`). */
const ARROW_COLUMNS = [...PORTS_ARROW_FIXED_COLUMNS, PORTS_ARROW_LINK_UP, ...PORT_DATA_COUNTERS];

/** What a port's fixed columns decode to (the far end as the object the samples carry). */
interface FixedColumns {
  /** The stream's `fixed` metadata: the name its encoder gave these columns. */
  name: string | undefined;
  rows: number;
  guid: ArrayLike<string>;
  nodeName: ArrayLike<string>;
  nodeType: ArrayLike<PortSample['nodeType']>;
  portNumber: ArrayLike<number>;
  lid: ArrayLike<number>;
  rate: ArrayLike<number>;
  remotes: PortSample['remote'][];
}

/**
 * A reader's kept fixed columns: the emulator encodes the columns that never change (GUIDs, names,
 * types, LIDs, rates, far ends) once and names them in each stream's metadata (`fixed`); a stream
 * that names the ones kept here is read without decoding them again (165,888 ports × 4 strings at
 * fat-tree-27648, and their far-end objects, every read).
 */
export interface KeptFixedColumns {
  columns?: FixedColumns | undefined;
}

function fixedColumns(
  name: string | undefined,
  rows: number,
  get: <T>(name: string) => ArrayLike<T>,
): FixedColumns {
  const remoteGuid = get<string | null>('remoteNodeGuid');
  const remoteName = get<string | null>('remoteNodeName');
  const remotePort = get<number | null>('remotePortNumber');
  const remotes: PortSample['remote'][] = new Array(rows);
  for (let i = 0; i < rows; i++) {
    const farGuid = remoteGuid[i];
    remotes[i] =
      farGuid === null || farGuid === undefined
        ? null
        : { nodeGuid: farGuid, nodeName: remoteName[i] as string, portNumber: remotePort[i] as number };
  }
  return {
    name,
    rows,
    guid: get('nodeGuid'),
    nodeName: get('nodeName'),
    nodeType: get('nodeType'),
    portNumber: get('portNumber'),
    lid: get('lid'),
    rate: get('rateGbps'),
    remotes,
  };
}

/**
 * The emulator's `/v1/ports` as an Arrow IPC stream, read into the same snapshot as the JSON form
 * (`portSamplesFromEmulator`); a stream cut short or missing a column is refused, naming it.
 */
export function portSamplesFromEmulatorArrow(
  bytes: Uint8Array,
  wallClockMs?: number,
  /** The fixed columns decoded from the reader's last stream, kept here across reads. */
  kept?: KeptFixedColumns,
): FabricSnapshot {
  let table: ReturnType<typeof tableFromIPC>;
  try {
    table = tableFromIPC(bytes, { useBigInt: true });
  } catch (error) {
    throw new Error(`emulator /v1/ports Arrow stream unreadable: ${(error as Error).message}`);
  }
  const meta = table.schema.metadata ?? new Map<string, string>();
  const dataUnitBytes = Number(meta.get('dataUnitBytes'));
  const timeMs = Number(meta.get('timeMs'));
  const fabric = meta.get('fabric');
  const fabricType = meta.get('fabricType');
  if (
    !Number.isInteger(dataUnitBytes) ||
    dataUnitBytes < 1 ||
    fabric === undefined ||
    fabricType === undefined
  )
    throw new Error(
      'emulator /v1/ports Arrow stream lacks fabric, fabricType or dataUnitBytes in its metadata',
    );
  const rows = table.numRows;
  const names = new Set(table.names);
  for (const name of ARROW_COLUMNS)
    if (!names.has(name) || table.getChild(name).length !== rows)
      throw new Error(`emulator /v1/ports Arrow stream lacks column "${name}" (or it is cut short)`);
  // Columns are decoded when read (the fixed ones not at all when kept).
  const decoded = new Map<string, ArrayLike<unknown>>();
  const get = <T>(name: string): ArrayLike<T> => {
    let column = decoded.get(name);
    if (column === undefined) {
      column = table.getChild(name).toArray() as ArrayLike<unknown>;
      if (column.length !== rows)
        throw new Error(`emulator /v1/ports Arrow stream lacks column "${name}" (or it is cut short)`);
      decoded.set(name, column);
    }
    return column as ArrayLike<T>;
  };
  const fixedName = meta.get('fixed');
  let fixed = kept?.columns;
  if (fixed === undefined || fixedName === undefined || fixed.name !== fixedName || fixed.rows !== rows) {
    fixed = fixedColumns(fixedName, rows, get);
    if (kept) kept.columns = fixedName === undefined ? undefined : fixed;
  }
  const { guid, nodeName, nodeType, portNumber, lid, rate, remotes } = fixed;
  const up = get<number>('linkUp');
  const xmitData = get<bigint>('XmitData');
  const rcvData = get<bigint>('RcvData');
  const xmitPkts = get<bigint>('XmitPkts');
  const rcvPkts = get<bigint>('RcvPkts');
  const xmitWait = get<bigint>('XmitWait');
  const unit = BigInt(dataUnitBytes);
  // The error counters this stream has, found once: a port then reads only those columns (as
  // errorCountersFrom would, by the emulator's name of each), not 27 name lookups per port.
  const errorColumns: [ErrorCounterKey, ArrayLike<unknown>][] = [];
  for (const key of ERROR_COUNTER_KEYS) {
    const name = (ERROR_COUNTERS[key] as ErrorCounterSpec).emulator;
    if (name !== undefined && names.has(name)) errorColumns.push([key, get(name)]);
  }
  // Most ports read the same error values as the port before (all idle): they share its object
  // (samples are never changed once read) instead of 165,888 objects that live until the next read.
  let last: PortErrorCounters | undefined;
  const errorsAt = (i: number): PortErrorCounters => {
    if (last !== undefined) {
      let same = true;
      for (let k = 0; k < errorColumns.length && same; k++) {
        const [key, column] = errorColumns[k] as [ErrorCounterKey, ArrayLike<unknown>];
        const v = column[i];
        same = last[key] === (v === undefined || v === null ? undefined : Number(v));
      }
      if (same) return last;
    }
    const errors: PortErrorCounters = {};
    for (const [key, column] of errorColumns) {
      const v = column[i];
      if (v !== undefined && v !== null) errors[key] = Number(v);
    }
    last = errors;
    return errors;
  };
  const ports: PortSample[] = new Array(rows);
  for (let i = 0; i < rows; i++) {
    const rateGbps = rate[i] as number;
    ports[i] = {
      nodeGuid: guid[i] as string,
      nodeName: nodeName[i] as string,
      nodeType: nodeType[i] as PortSample['nodeType'],
      portNumber: portNumber[i] as number,
      lid: lid[i] as number,
      rateBytesPerSecond: (rateGbps * 1e9) / 8,
      linkUp: up[i] === 1,
      remote: remotes[i] as PortSample['remote'],
      transmitBytes: bigToBytes(xmitData[i] as bigint, unit),
      receiveBytes: bigToBytes(rcvData[i] as bigint, unit),
      transmitPackets: Number(xmitPkts[i]),
      receivePackets: Number(rcvPkts[i]),
      transmitWaitTicks: Number(xmitWait[i]),
      transmitWaitTickSeconds: (dataUnitBytes * 8) / (rateGbps * 1e9),
      errors: errorsAt(i),
    };
  }
  const onWallClock =
    wallClockMs !== undefined &&
    Number.isFinite(timeMs) &&
    Math.abs(timeMs - wallClockMs) <= WALL_CLOCK_TOLERANCE_MS;
  return {
    fabric,
    fabricType,
    ports,
    // The kept fixed columns: the same object while the emulator's ports and far ends stay.
    layout: fixed,
    ...(onWallClock ? { countersReadAtMs: Math.round(timeMs) } : {}),
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
  // The Arrow form: a fraction of the JSON's bytes and of its CPU at both ends (27,648 hosts).
  const url = new URL('/v1/ports?format=arrow', baseUrl).toString();
  const kept: KeptFixedColumns = {};
  return {
    name: url,
    async read(signal) {
      const response = await fetch(url, { signal }).catch((error: unknown) => {
        if (!closedConnection(error) || signal.aborted) throw error;
        return fetch(url, { signal });
      });
      if (!response.ok) throw new Error(`${url} answered HTTP ${response.status}`);
      // An emulator without the Arrow form answers its JSON document: read as JSON.
      if (!(response.headers.get('content-type') ?? '').startsWith(ARROW_STREAM_MEDIA_TYPE))
        return portSamplesFromEmulator((await response.json()) as PortCountersDocument, Date.now());
      const bytes = new Uint8Array(await response.arrayBuffer());
      const length = Number(response.headers.get('content-length'));
      if (Number.isFinite(length) && length !== bytes.byteLength)
        throw new Error(`${url} answer cut short: ${bytes.byteLength} of ${length} bytes`);
      return portSamplesFromEmulatorArrow(bytes, Date.now(), kept);
    },
  };
}
