import { ARROW_STREAM_MEDIA_TYPE } from '@fabscope/contracts/media-types';
import {
  PORT_DATA_COUNTERS,
  PORTS_ARROW_FIXED_COLUMNS,
  PORTS_ARROW_LINK_UP,
  type PortCounterName,
  type PortCountersDocument,
} from '@fabscope/contracts/ports';
import { tableFromIPC } from '@uwdata/flechette';
import { errorCountersFrom } from '../../fabric/error-counters.ts';
import type { FabricSnapshot, FabricSource, PortSample } from '../../fabric/port-sample.ts';
import {
  bigToBytes,
  type ColumnGetter,
  errorReader,
  fixedColumns,
  type KeptFixedColumns,
} from './arrow-columns.ts';

export type { KeptFixedColumns } from './arrow-columns.ts';

/** Native counter (decimal string) × unit → bytes, in BigInt where doubles would lose digits. */
function toBytes(value: string, unitBytes: bigint): number {
  return value.length <= 15 ? Number(value) * Number(unitBytes) : Number(BigInt(value) * unitBytes);
}

/** How far the emulator's clock may be from the wall clock and still stamp its counters. */
const WALL_CLOCK_TOLERANCE_MS = 60_000;

/** The emulator's time as the counters' read time, when it runs on the wall clock. */
function readStamp(timeMs: number, wallClockMs: number | undefined): { countersReadAtMs?: number } {
  const onWallClock =
    wallClockMs !== undefined &&
    Number.isFinite(timeMs) &&
    Math.abs(timeMs - wallClockMs) <= WALL_CLOCK_TOLERANCE_MS;
  return onWallClock ? { countersReadAtMs: Math.round(timeMs) } : {};
}

/**
 * The emulator's `/v1/ports` document as a snapshot. Its time stamps the counters when it is
 * within reach of `wallClockMs`; an emulator stepped by hand leaves the stamping to the scraper.
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
  return { fabric: doc.fabric, fabricType: doc.fabricType, ports, ...readStamp(doc.timeMs, wallClockMs) };
}

/** The Arrow form's columns every port has (`GET /v1/ports?format=arrow`). */
const ARROW_COLUMNS = [...PORTS_ARROW_FIXED_COLUMNS, PORTS_ARROW_LINK_UP, ...PORT_DATA_COUNTERS];

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
  const get: ColumnGetter = <T>(name: string): ArrayLike<T> => {
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
  const errorsAt = errorReader(names, get);
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
  // The kept fixed columns: the same object while the emulator's ports and far ends stay.
  return { fabric, fabricType, ports, layout: fixed, ...readStamp(timeMs, wallClockMs) };
}

/** Whether a fetch failed on a kept-alive connection the server had closed: safe to ask again (a GET). */
function closedConnection(error: unknown): boolean {
  const cause = (error as { cause?: { code?: string } } | null)?.cause;
  return error instanceof TypeError && (cause?.code === 'ECONNRESET' || cause?.code === 'UND_ERR_SOCKET');
}

/** Reads the emulator's switch- and adapter-port endpoint, as a fabric agent polls a real fabric. */
export function emulatorSource(baseUrl: string): FabricSource {
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
