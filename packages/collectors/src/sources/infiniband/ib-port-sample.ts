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
 * Length of one PortXmitWait tick. The IBTA counts it in symbol times — the time one byte takes on
 * one lane (4 ns at SDR) — times PortSamplesControl.Tick + 1; in one symbol time the port moves one
 * byte per lane. fabscope takes Tick = 0 (the base interval), so a tick is `lanes` bytes at the
 * port's data rate. Vendors use other multipliers (NVIDIA's ibdiagnet manual: Switch-IB reports
 * Tick 31, Quantum counts every 8 bytes); reading PortSamplesControl per device is not done yet.
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
 * One port's sample; a counter not read is NaN (unknown), never 0. Its link is up when its PortInfo
 * says Active; when PortInfo did not answer, the far end's state in the same sweep decides (after a
 * cable is pulled, MADs to the far switch often fail until the SM re-routes around it, and a link is
 * down when either end says so), then whether discovery last saw the cable.
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

/**
 * PortCounters' error counters by their perfquery names, as a MAD read them. A basic (16/8/4-bit)
 * counter stuck at its maximum has saturated: what it counts since is unknown, so it is left out,
 * not frozen.
 */
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
