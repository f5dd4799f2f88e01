import { ERROR_FIELDS, type ErrorField } from '@fabscope/contracts';
import { CATEGORY_NAMES } from '@fabscope/topology';
import {
  type Batch,
  type Column,
  type DataType,
  type Schema,
  Table,
  tableFromIPC,
  tableToIPC,
} from '@uwdata/flechette';
import type { CategoryHistograms } from '../../lib/link-errors.ts';
import type { FabricSummary } from '../../lib/summary.ts';
import type { Tuple } from '../../lib/tuple.ts';
import type { ErrorReading } from '../error-reading.ts';
import { RATE_UNKNOWN } from '../history-encoding.ts';
import type { FrameColumns } from '../link-history.ts';
import {
  column,
  listColumn,
  listValues,
  utf8Column,
  variableListColumn,
  variableListValues,
} from './arrow-columns.ts';
import { MESSAGE_RECORD_BATCH, MESSAGE_SCHEMA, wholeMessages } from './arrow-messages.ts';
import type { FabricIdentity } from './fabric-identity.ts';
import {
  BUCKETS,
  CATEGORY_CELLS,
  frameSchema,
  HISTORY_FORMAT_VERSION,
  READABLE_VERSIONS,
  READING_HERE,
  READING_NONE,
  READING_PREVIOUS,
} from './frame-schema.ts';

/** One instant of the history as it is kept on disk: the ring's frame and its summary. */
export interface StoredFrame {
  timeMs: number;
  columns: FrameColumns;
  summary: FabricSummary | undefined;
}

/**
 * One instant ↔ a one-row Arrow IPC record batch (docs/history.md): fixed-size lists in channel order (element i is
 * /links direction i), as link-history.ts's ring keeps them: writing copies no value, reading copies each list once.
 */
export class FrameCodec {
  readonly schema: Schema;
  private readonly channels: number;

  /** The previous instant's error reading, written (encode) or read (decode) last. */
  private lastReading: ErrorReading | undefined;
  /** The port sets written last (a reading that shares them writes none). */
  private lastSet: Uint8Array | undefined;

  /** `version` '1' writes the old form (for the tests that read it back). */
  constructor(
    readonly identity: FabricIdentity,
    readonly version: '1' | '2' = HISTORY_FORMAT_VERSION,
  ) {
    const n = identity.channels;
    this.channels = n;
    this.schema = frameSchema(identity, version);
  }

  /**
   * The frame as Arrow IPC stream messages: the schema (written once, at the head of a segment)
   * and the frame's record batch.
   */
  encode(frame: StoredFrame): { schema: Uint8Array; batch: Uint8Array } {
    const { columns, summary } = frame;
    if (columns.load.length !== this.channels) {
      throw new RangeError(`expected ${this.channels} link directions, got ${columns.load.length}`);
    }
    const types = this.schema.fields.map((f) => f.type);
    const [time, load, wait, up, host, isl, hostBuckets, stale] = types as Tuple<DataType, 8>;
    const hostTotal = summary?.hostTransmitBytesPerSecond ?? null;
    const table = new Table(this.schema, [
      column(time, BigInt64Array.of(BigInt(Math.round(frame.timeMs)))),
      listColumn(load, columns.load),
      listColumn(wait, columns.wait),
      listColumn(up, columns.up),
      column(host, Float64Array.of(hostTotal ?? 0), hostTotal === null),
      listColumn(isl, Uint32Array.from(summary?.histogram.isl ?? new Array(BUCKETS).fill(0))),
      listColumn(hostBuckets, Uint32Array.from(summary?.histogram.host ?? new Array(BUCKETS).fill(0))),
      column(stale, Uint32Array.of(summary?.staleLinks ?? this.channels)),
      ...(this.version === '1' ? [] : this.version2Columns(types.slice(8), frame)),
    ]);
    const bytes = tableToIPC(table, { format: 'stream' });
    if (!bytes) throw new Error('Arrow IPC encoder gave no bytes');
    const [schema, batch] = wholeMessages(bytes).messages;
    if (schema?.type !== MESSAGE_SCHEMA || batch?.type !== MESSAGE_RECORD_BATCH) {
      throw new Error('Arrow IPC encoder gave an unexpected stream');
    }
    return {
      schema: bytes.subarray(schema.start, schema.end),
      batch: bytes.subarray(batch.start, batch.end),
    };
  }

  /** Packets, the error reading and the summary's categories (version 2). */
  private version2Columns(types: DataType[], frame: StoredFrame): Column<unknown>[] {
    const [packets, reading, sets, portSet, ports, fields, values, categories, without] = types as Tuple<
      DataType,
      9
    >;
    const r = frame.columns.errors;
    const here = r !== undefined && r !== this.lastReading;
    this.lastReading = r;
    // The port sets only when they changed (a segment's first reading always has them).
    const newSets = here && r.set !== this.lastSet;
    if (newSets) this.lastSet = r.set;
    const state = r === undefined ? READING_NONE : here ? READING_HERE : READING_PREVIOUS;
    const setNames = newSets ? r.sets.map((set) => set.map((i) => ERROR_FIELDS[i])) : [];
    const histograms = frame.summary?.categories;
    const cells = histograms
      ? Uint32Array.from(
          CATEGORY_NAMES.flatMap((name) => {
            const h = histograms[name];
            return [...h.isl, ...h.host, h.unknown];
          }),
        )
      : new Uint32Array(0);
    const withoutData = frame.summary?.portsWithoutData;
    return [
      listColumn(packets, frame.columns.packets),
      column(reading, Int8Array.of(state)),
      utf8Column(sets, newSets ? JSON.stringify(setNames) : ''),
      variableListColumn(portSet, newSets ? r.set : new Uint8Array(0)),
      variableListColumn(ports, here ? r.port : new Int32Array(0)),
      variableListColumn(fields, here ? r.field : new Uint8Array(0)),
      variableListColumn(values, here ? r.value : new Float64Array(0)),
      variableListColumn(categories, cells),
      column(without, Uint32Array.of(withoutData ?? 0), withoutData === undefined),
    ];
  }

  /** A segment starts anew: its first instant carries its error reading whole. */
  startSegment(): void {
    this.lastReading = undefined;
    this.lastSet = undefined;
  }

  /** The frames of a segment (an Arrow IPC stream) up to its last whole message. */
  decode(bytes: Uint8Array): { frames: StoredFrame[]; wholeBytes: number } {
    const { messages, end } = wholeMessages(bytes);
    if (messages[0]?.type !== MESSAGE_SCHEMA) throw new Error('no Arrow schema at the head');
    const table = tableFromIPC(bytes.subarray(0, end));
    const meta = table.schema.metadata;
    const version = meta?.get('fabscope.history');
    if (!meta || version === undefined || !READABLE_VERSIONS.has(version))
      throw new Error(
        `not fabscope history of a version this fabscope reads (${[...READABLE_VERSIONS].join(', ')}): version ${version ?? 'none'}`,
      );
    if (
      meta.get('fabscope.fabric') !== this.identity.hash ||
      meta.get('fabscope.directions') !== String(this.channels)
    )
      throw new Error(`the history of another fabric (${meta.get('fabscope.fabric_name') ?? 'unnamed'})`);
    const batches = (name: string) => table.getChild(name).data as readonly Batch<unknown>[];
    const [time, load, wait, up, host, isl, hostBuckets, stale] = [
      'time',
      'load',
      'wait',
      'link_up',
      'host_transmit_bytes_per_second',
      'histogram_isl',
      'histogram_host',
      'stale_links',
    ].map(batches) as Batch<unknown>[][] as Tuple<Batch<unknown>[], 8>;
    const v2 = version !== '1';
    const fieldNames = v2 ? (JSON.parse(meta.get('fabscope.error_field_names') ?? '[]') as string[]) : [];
    const more = v2
      ? [
          'packets',
          'error_reading',
          'error_sets',
          'error_port_set',
          'error_ports',
          'error_fields',
          'error_values',
          'histogram_categories',
          'ports_without_data',
        ].map(batches)
      : [];
    const [packets, reading, sets, portSet, ports, fields, values, categories, without] = more;
    // A segment of version 1 kept no packets: unknown, never 0.
    const unknownPackets = v2 ? undefined : new Uint16Array(this.channels).fill(RATE_UNKNOWN);
    let previous: ErrorReading | undefined;
    let previousSets: Pick<ErrorReading, 'set' | 'sets'> | undefined;
    const fieldOf = fieldNames.map((name) => ERROR_FIELDS.indexOf(name as ErrorField));
    const frames: StoredFrame[] = [];
    time.forEach((timeBatch, b) => {
      for (let row = 0; row < timeBatch.length; row++) {
        const timeMs = Number(timeBatch.at(row));
        const hostTotal = host[b]?.at(row) as number | null;
        const summary: FabricSummary = {
          time: new Date(timeMs).toISOString(),
          hostTransmitBytesPerSecond: hostTotal ?? null,
          histogram: {
            isl: Array.from(listValues(isl[b], row, BUCKETS)),
            host: Array.from(listValues(hostBuckets[b], row, BUCKETS)),
          },
          staleLinks: Number(stale[b]?.at(row)),
        };
        let errors: ErrorReading | undefined;
        if (v2) {
          const state = reading?.[b]?.at(row) as number;
          if (state === READING_HERE) {
            const portSets = variableListValues(portSet?.[b], row);
            // No port sets: those of the reading before, in this segment.
            if (portSets.length > 0) {
              const names = JSON.parse(sets?.[b]?.at(row) as string) as string[][];
              previousSets = {
                set: portSets.slice() as Uint8Array,
                sets: names.map((set) => set.map((name) => ERROR_FIELDS.indexOf(name as ErrorField))),
              };
            }
            if (!previousSets || previousSets.set.length !== this.channels)
              throw new Error('an error reading without the ports of this fabric');
            errors = {
              ...previousSets,
              port: variableListValues(ports?.[b], row).slice() as Int32Array,
              // A field this fabscope does not know is dropped (index −1 → 255, never a field).
              field: Uint8Array.from(variableListValues(fields?.[b], row), (i) => fieldOf[i] ?? 255),
              value: variableListValues(values?.[b], row).slice() as Float64Array,
            };
          } else if (state === READING_PREVIOUS) errors = previous;
          previous = errors;
          const cells = variableListValues(categories?.[b], row);
          if (cells.length === CATEGORY_NAMES.length * CATEGORY_CELLS) {
            const histograms = {} as CategoryHistograms;
            CATEGORY_NAMES.forEach((name, k) => {
              const at = k * CATEGORY_CELLS;
              histograms[name] = {
                isl: Array.from(cells.subarray(at, at + 5)),
                host: Array.from(cells.subarray(at + 5, at + 10)),
                unknown: cells[at + 10] as number,
              };
            });
            summary.categories = histograms;
          }
          const withoutData = without?.[b]?.at(row) as number | null;
          if (withoutData !== null && withoutData !== undefined) summary.portsWithoutData = withoutData;
        }
        frames.push({
          timeMs,
          columns: {
            load: listValues(load[b], row, this.channels) as Uint16Array,
            packets: unknownPackets ?? (listValues(packets?.[b], row, this.channels) as Uint16Array),
            wait: listValues(wait[b], row, this.channels) as Uint8Array,
            up: listValues(up[b], row, this.channels) as Int8Array,
            errors,
          },
          summary,
        });
      }
    });
    return { frames, wholeBytes: end };
  }
}
