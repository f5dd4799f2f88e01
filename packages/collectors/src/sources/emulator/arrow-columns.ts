import {
  ERROR_COUNTER_KEYS,
  ERROR_COUNTERS,
  type ErrorCounterKey,
  type PortErrorCounters,
} from '../../fabric/error-counters.ts';
import type { PortSample } from '../../fabric/port-sample.ts';

/** A column of the stream, decoded when first asked for. */
export type ColumnGetter = <T>(name: string) => ArrayLike<T>;

/** A 64-bit counter (native units) × unit → bytes, exact as `toBytes` is. */
export function bigToBytes(value: bigint, unitBytes: bigint): number {
  return value <= MAX_EXACT ? Number(value) * Number(unitBytes) : Number(value * unitBytes);
}
const MAX_EXACT = BigInt(Number.MAX_SAFE_INTEGER) / 8n;

/** What a port's fixed columns decode to (the far end as the object the samples carry). */
export interface FixedColumns {
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

/** A reader's kept fixed columns, not decoded again from a stream whose `fixed` metadata names them. */
export interface KeptFixedColumns {
  columns?: FixedColumns | undefined;
}

export function fixedColumns(name: string | undefined, rows: number, get: ColumnGetter): FixedColumns {
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
 * Reads a port's error counters from the stream's error columns. A port whose values equal the port
 * before's shares its object (samples are immutable, and most ports are idle).
 */
export function errorReader(names: ReadonlySet<string>, get: ColumnGetter): (i: number) => PortErrorCounters {
  const errorColumns: [ErrorCounterKey, ArrayLike<unknown>][] = [];
  for (const key of ERROR_COUNTER_KEYS) {
    const name = ERROR_COUNTERS[key].emulator;
    if (name !== undefined && names.has(name)) errorColumns.push([key, get(name)]);
  }
  let last: PortErrorCounters | undefined;
  return (i: number): PortErrorCounters => {
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
}
