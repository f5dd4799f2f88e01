import { infinibandDataRateGbps } from '@fabscope/topology';
import {
  ERROR_COUNTER_KEYS,
  ERROR_COUNTERS,
  type ErrorCounterKey,
  errorCountersFrom,
} from '../../fabric/error-counters.ts';
import type { PortErrorCounters, PortSample } from '../../fabric/port-sample.ts';
import type { IbPort } from './ib-discovery.ts';
import type { IbPortReading } from './ib-port-reader.ts';
import { BASIC_WIDTHS } from './perfquery.ts';

const NAME_OF_SPEED = /^(SDR|DDR|QDR|FDR10|FDR|EDR|HDR|NDR|XDR)$/;

/** PortState Active (IBA 14.2.5.6 PortInfo): the only state in which a link carries data. */
export const PORT_ACTIVE = 4;

const big = (v: bigint | null) => (v === null ? Number.NaN : Number(v));

/** The field name each error counter is reported under, by its perfquery name. */
const FIELD_OF_PERFQUERY: ReadonlyMap<string, string> = new Map(
  ERROR_COUNTER_KEYS.flatMap((key) => {
    const name = ERROR_COUNTERS[key].perfquery;
    return name ? [[name, key] as const] : [];
  }),
);

/** The field a perfquery counter name is reported under (`PortXmitWait`: `transmitWait`). */
export function fieldOfPerfquery(name: string): string | undefined {
  return name === 'PortXmitWait' ? 'transmitWait' : FIELD_OF_PERFQUERY.get(name);
}

/** The largest value of a counter: the narrow PortCounters width, or 64 bits where the reading is extended. */
function maxOf(name: string, extended: boolean): number {
  const width = extended ? 64 : (BASIC_WIDTHS[name] ?? 64);
  return 2 ** width - 1;
}

const WAIT_MAX_NARROW = 2n ** 32n - 1n;
const WAIT_MAX_WIDE = 2n ** 64n - 1n;

function waitSaturated(reading: IbPortReading): boolean {
  const v = reading.transmitWaitTicks;
  return v !== null && v === (reading.countersExtended ? WAIT_MAX_WIDE : WAIT_MAX_NARROW);
}

/**
 * The counters of a reading stuck at the maximum of their width, by the name the API reports them under
 * (`transmitWait`, `linkDowned`, …): they saturate rather than wrap, so their value is unknown from the first
 * such reading until they are cleared.
 */
export function saturatedFields(reading: IbPortReading): string[] {
  const fields: string[] = [];
  if (waitSaturated(reading)) fields.push('transmitWait');
  const errors = reading.errors;
  if (errors) {
    for (const [name, v] of Object.entries(errors)) {
      const field = FIELD_OF_PERFQUERY.get(name);
      if (field !== undefined && v >= maxOf(name, reading.countersExtended)) fields.push(field);
    }
  }
  return fields;
}

/**
 * One port's sample; a counter not read is NaN, never 0. The link is up when PortInfo says Active;
 * without PortInfo the far end's state decides (MADs often fail after a pull), then discovery.
 */
export function portSample(port: IbPort, reading: IbPortReading, farEnd: number | null = null): PortSample {
  // Data rate (bytes/s): the active width × speed the port reports, else what discovery saw.
  const lanes = reading.linkWidthActive ?? (port.width ? Number.parseInt(port.width, 10) : Number.NaN);
  const speed = reading.linkSpeedActive ?? port.speed ?? '';
  const gbps = NAME_OF_SPEED.test(speed) ? infinibandDataRateGbps(lanes, speed) : undefined;
  const rate = gbps === undefined || !Number.isFinite(gbps) ? Number.NaN : (gbps * 1e9) / 8;
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
    // Saturated: unknown from its first reading at the maximum, never a partial step towards it.
    transmitWaitTicks: waitSaturated(reading) ? Number.NaN : big(reading.transmitWaitTicks),
    // A PortXmitWait tick: a symbol time (a byte per lane) × (Tick + 1); Tick 0 where the PMA does not
    // answer PortSamplesControl (ibsim) or is not asked (CA ports), as before it was read.
    transmitWaitTickSeconds:
      lanes > 0 && rate > 0 ? (lanes / rate) * ((reading.samplesTick ?? 0) + 1) : Number.NaN,
    ...(reading.errors ? { errors: ibErrors(reading.errors, reading.countersExtended) } : {}),
    ...(reading.physicalState !== null ? { physicalState: reading.physicalState } : {}),
    ...(reading.countersReadAtMs !== null ? { countersReadAtMs: reading.countersReadAtMs } : {}),
  };
}

/**
 * The error counters by perfquery name; a saturated one is NaN: reported but unknown (absent would read as
 * 0 where the fabric's other ports report it).
 */
function ibErrors(counters: Readonly<Record<string, number>>, extended: boolean): PortErrorCounters {
  const out = errorsByPerfqueryName((name) => {
    const v = counters[name];
    return v === undefined || v >= maxOf(name, extended) ? undefined : v;
  });
  for (const [name, v] of Object.entries(counters)) {
    const field = FIELD_OF_PERFQUERY.get(name) as ErrorCounterKey | undefined;
    if (field !== undefined && v >= maxOf(name, extended)) out[field] = Number.NaN;
  }
  return out;
}

export function errorsByPerfqueryName(lookup: (name: string) => number | undefined): PortErrorCounters {
  return errorCountersFrom((spec) => (spec.perfquery ? [spec.perfquery] : undefined), lookup);
}
