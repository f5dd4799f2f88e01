import { infinibandDataRateGbps } from '@fabscope/topology';
import { errorCountersFrom } from '../../fabric/error-counters.ts';
import type { PortErrorCounters, PortSample } from '../../fabric/port-sample.ts';
import type { IbPort } from './ib-discovery.ts';
import type { IbPortReading } from './ib-port-reader.ts';
import { BASIC_WIDTHS } from './perfquery.ts';

const NAME_OF_SPEED = /^(SDR|DDR|QDR|FDR10|FDR|EDR|HDR|NDR|XDR)$/;

/** PortState Active (IBA 14.2.5.6 PortInfo): the only state in which a link carries data. */
export const PORT_ACTIVE = 4;

const lanesOf = (port: IbPort, reading: IbPortReading) =>
  reading.linkWidthActive ?? (port.width ? Number.parseInt(port.width, 10) : Number.NaN);

/**
 * Length of one PortXmitWait tick: symbol times (a byte per lane) × (Tick + 1) per the IBTA, taking
 * Tick = 0 (PortSamplesControl is not read).
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
 * One port's sample; a counter not read is NaN, never 0. The link is up when PortInfo says Active;
 * without PortInfo the far end's state decides (MADs often fail after a pull), then discovery.
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

/** PortCounters' error counters by perfquery name; a saturated one is unknown, so left out. */
export function ibErrors(counters: Readonly<Record<string, number>>): PortErrorCounters {
  return errorsByPerfqueryName((name) => {
    const v = counters[name];
    const width = BASIC_WIDTHS[name];
    if (v === undefined) return undefined;
    return width !== undefined && v === 2 ** width - 1 ? undefined : v;
  });
}

export function errorsByPerfqueryName(lookup: (name: string) => number | undefined): PortErrorCounters {
  return errorCountersFrom((spec) => (spec.perfquery ? [spec.perfquery] : undefined), lookup);
}
