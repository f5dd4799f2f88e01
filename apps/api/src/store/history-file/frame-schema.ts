import { ERROR_FIELDS } from '@fabscope/contracts';
import { CATEGORY_NAMES } from '@fabscope/topology';
import {
  type DataType,
  Endianness,
  type Field,
  field,
  fixedSizeList,
  float64,
  int8,
  int32,
  type Schema,
  TimeUnit,
  timestamp,
  uint8,
  uint16,
  uint32,
  utf8,
  Version,
  list as variableList,
} from '@uwdata/flechette';
import {
  LOAD_SCALE,
  LOAD_UNKNOWN,
  RATE_LOG_MIN,
  RATE_STEPS,
  RATE_UNKNOWN,
  WAIT_SCALE,
  WAIT_UNKNOWN,
} from '../history-encoding.ts';
import type { FabricIdentity } from './fabric-identity.ts';

/**
 * Version of the on-disk form (docs/history.md). 2 adds packets/s, the ports' error readings and the summary's
 * categories; a segment of version 1 is read with those unknown (never 0); any other version is not read.
 */
export const HISTORY_FORMAT_VERSION = '2';
export const READABLE_VERSIONS = new Set(['1', '2']);

export const BUCKETS = 10;
/** A category histogram's numbers in the file: per category (CATEGORY_NAMES order) isl[5], host[5], unknown. */
export const CATEGORY_CELLS = 11;

/** `error_reading`: where an instant's ports' error reading is. */
export const READING_NONE = 0;
export const READING_HERE = 1;
export const READING_PREVIOUS = 2;

/** The Arrow schema of a fabric's history segments (docs/history.md): each field says what it holds. */
export function frameSchema(identity: FabricIdentity, version: '1' | '2'): Schema {
  const n = identity.channels;
  const items = (type: DataType) => variableList(field('item', type, false));
  const list = (item: DataType, size: number): DataType => fixedSizeList(field('item', item, false), size);
  const described = (name: string, type: DataType, meaning: string, nullable = false): Field =>
    field(name, type, nullable, new Map([['fabscope.meaning', meaning]]));
  return {
    version: Version.V5,
    endianness: Endianness.Little,
    fields: [
      described('time', timestamp(TimeUnit.MILLISECOND, 'UTC'), 'sample time of the scrape'),
      described(
        'load',
        list(uint16(), n),
        `per link direction: bytes/s ÷ capacity × ${LOAD_SCALE} (0..2 × capacity); ${LOAD_UNKNOWN} unknown`,
      ),
      described(
        'wait',
        list(uint8(), n),
        `per link direction: XmitWait share of time × ${WAIT_SCALE}; ${WAIT_UNKNOWN} unknown`,
      ),
      described('link_up', list(int8(), n), 'per link direction: 1 up, 0 down, -1 unknown'),
      described(
        'host_transmit_bytes_per_second',
        float64(),
        'what hosts send, bytes/s (null: unknown)',
        true,
      ),
      described('histogram_isl', list(uint32(), BUCKETS), 'ISL directions per 10 % utilization bucket'),
      described('histogram_host', list(uint32(), BUCKETS), 'host-link directions per 10 % bucket'),
      described('stale_links', uint32(), 'link directions of unknown utilization'),
      ...(version === '1'
        ? []
        : [
            described(
              'packets',
              list(uint16(), n),
              `per link direction: packets/s as code k = 1 + round((log2(packets/s) - (${RATE_LOG_MIN})) × ${RATE_STEPS}); 0 is 0, ${RATE_UNKNOWN} unknown`,
            ),
            described(
              'error_reading',
              int8(),
              `the ports' error reading: ${READING_NONE} none (unknown), ${READING_HERE} in this record, ${READING_PREVIOUS} the previous record's`,
            ),
            described(
              'error_sets',
              utf8(),
              'JSON: the sets of error fields the ports reported (names as /links errors), referred to by error_port_set',
            ),
            described(
              'error_port_set',
              items(uint8()),
              'per port (the sending port of link direction i): its set in error_sets, 255 no reading; empty unless error_reading is 1',
            ),
            described('error_ports', items(int32()), 'the fields not idle (0; link quality 5): port'),
            described(
              'error_fields',
              items(uint8()),
              'the fields not idle: field, index in error_field_names',
            ),
            described('error_values', items(float64()), 'the fields not idle: per second (gauges: value)'),
            described(
              'histogram_categories',
              items(uint32()),
              `per PM category (${CATEGORY_NAMES.join(', ')}): ISL directions per bar (5), host-link directions (5), unknown; empty: none`,
            ),
            described('ports_without_data', uint32(), 'cabled ports without a reading (null: unknown)', true),
          ]),
    ],
    metadata: new Map([
      ['fabscope.history', version],
      ['fabscope.error_field_names', JSON.stringify(ERROR_FIELDS)],
      ['fabscope.fabric', identity.hash],
      ['fabscope.fabric_name', identity.name],
      ['fabscope.directions', String(n)],
    ]),
  };
}
