import { infinibandDataRateGbps } from '@fabscope/topology';
import { errorCountersFrom } from '../../fabric/error-counters.ts';
import type { PortErrorCounters, PortSample } from '../../fabric/port-sample.ts';
import type { IbPort } from './ib-discovery.ts';
import type { IbPortReading } from './ib-port-reader.ts';
import { BASIC_WIDTHS } from './perfquery.ts';

const NAME_OF_SPEED = /^(SDR|DDR|QDR|FDR10|FDR|EDR|HDR|NDR|XDR)$/;

/** PortState Active (IBA 14.2.5.6 PortInfo): the only state in which a link carries data. */
export const PORT_ACTIVE = 4;

const big = (v: bigint | null) => (v === null ? Number.NaN : Number(v));

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
    transmitWaitTicks: big(reading.transmitWaitTicks),
    // A PortXmitWait tick: a symbol time (a byte per lane) × (Tick + 1), Tick taken as 0 (not read).
    transmitWaitTickSeconds: lanes > 0 && rate > 0 ? lanes / rate : Number.NaN,
    ...(reading.errors ? { errors: ibErrors(reading.errors) } : {}),
  };
}

/** PortCounters' error counters by perfquery name; a saturated one is unknown, so left out. */
function ibErrors(counters: Readonly<Record<string, number>>): PortErrorCounters {
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
