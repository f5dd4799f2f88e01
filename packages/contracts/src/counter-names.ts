// A port's counters as the tools administrators know print them: perfquery (InfiniBand), opapmaquery /
// opareport (Omni-Path), IF-MIB or the RDMA sysfs counters (Ethernet). One table, by the API's field names.
import type { ErrorCounterField, PORT_COUNTER_FAMILIES, PortGaugeField } from './metrics.ts';
import type { FabricType } from './names.ts';

/** A cumulative counter a port's page totals: the data counters, then the error counters (not the gauges). */
export type PortTotalField = keyof typeof PORT_COUNTER_FAMILIES | ErrorCounterField;
/** A row of a port's page: a cumulative counter or a gauge. */
export type PortFigure = PortTotalField | PortGaugeField;

/** Which end's reading a figure is: the port's sending side, its receiving side, or the link (both ends). */
export type FigureSide = 'transmit' | 'receive' | 'link';

export interface FigureNames {
  side: FigureSide;
  /** The name on each fabric kind that has the counter; a kind without it is absent (never shown as 0). */
  names: Partial<Record<FabricType, string>>;
  /** The data counters count bytes here (perfquery counts 4-byte words, opapmaquery flits). */
  bytes?: true;
  gauge?: true;
}

/**
 * Each figure's name per fabric kind: perfquery's field (PortCounters / PortCountersExtended), opapmaquery's
 * getportstatus line, and on Ethernet IF-MIB's object (SNMP) or the RDMA port counter file (RoCE).
 */
export const PORT_FIGURE_NAMES: Record<PortFigure, FigureNames> = {
  transmitBytes: {
    side: 'transmit',
    bytes: true,
    names: { infiniband: 'PortXmitData', omnipath: 'Xmit Data', ethernet: 'ifHCOutOctets' },
  },
  receiveBytes: {
    side: 'receive',
    bytes: true,
    names: { infiniband: 'PortRcvData', omnipath: 'Rcv Data', ethernet: 'ifHCInOctets' },
  },
  transmitPackets: {
    side: 'transmit',
    names: { infiniband: 'PortXmitPkts', omnipath: 'Xmit Pkts', ethernet: 'ifHCOutUcastPkts' },
  },
  receivePackets: {
    side: 'receive',
    names: { infiniband: 'PortRcvPkts', omnipath: 'Rcv Pkts', ethernet: 'ifHCInUcastPkts' },
  },
  transmitWait: { side: 'transmit', names: { infiniband: 'PortXmitWait', omnipath: 'Xmit Wait' } },
  symbolErrors: {
    side: 'link',
    names: { infiniband: 'SymbolErrorCounter', omnipath: 'Local Link Integ Err', ethernet: 'symbol_error' },
  },
  linkErrorRecovery: {
    side: 'link',
    names: {
      infiniband: 'LinkErrorRecoveryCounter',
      omnipath: 'Link Error Recovery',
      ethernet: 'link_error_recovery',
    },
  },
  linkDowned: {
    side: 'link',
    names: { infiniband: 'LinkDownedCounter', omnipath: 'Link Downed', ethernet: 'link_downed' },
  },
  receiveErrors: {
    side: 'receive',
    names: { infiniband: 'PortRcvErrors', omnipath: 'Rcv Errors', ethernet: 'ifInErrors' },
  },
  transmitDiscards: {
    side: 'transmit',
    names: { infiniband: 'PortXmitDiscards', omnipath: 'Xmit Discards', ethernet: 'ifOutDiscards' },
  },
  receiveRemotePhysicalErrors: {
    side: 'receive',
    names: { infiniband: 'PortRcvRemotePhysicalErrors', omnipath: 'Rcv Rmt Phys Err' },
  },
  receiveSwitchRelayErrors: {
    side: 'receive',
    names: { infiniband: 'PortRcvSwitchRelayErrors', omnipath: 'Rcv Sw Relay Err' },
  },
  transmitConstraintErrors: {
    side: 'transmit',
    names: { infiniband: 'PortXmitConstraintErrors', omnipath: 'Xmit Constraint' },
  },
  receiveConstraintErrors: {
    side: 'receive',
    names: { infiniband: 'PortRcvConstraintErrors', omnipath: 'Rcv Constraint' },
  },
  // opapmaquery prints one "Local Link Integ Err" line, read into symbolErrors: one row on Omni-Path.
  localLinkIntegrityErrors: { side: 'link', names: { infiniband: 'LocalLinkIntegrityErrors' } },
  excessiveBufferOverrunErrors: {
    side: 'receive',
    names: { infiniband: 'ExcessiveBufferOverrunErrors', omnipath: 'Exc. Buffer Overrun' },
  },
  vl15Dropped: { side: 'receive', names: { infiniband: 'VL15Dropped' } },
  uncorrectableErrors: { side: 'link', names: { omnipath: 'Uncorrectable Errors' } },
  fmConfigErrors: { side: 'link', names: { omnipath: 'FM Config Errors' } },
  congestionDiscards: { side: 'transmit', names: { omnipath: 'Congestion Discards' } },
  receiveFecn: { side: 'receive', names: { omnipath: 'Rcv FECN' } },
  receiveBecn: { side: 'receive', names: { omnipath: 'Rcv BECN' } },
  markFecn: { side: 'transmit', names: { omnipath: 'Mark FECN' } },
  transmitTimeCongestion: { side: 'transmit', names: { omnipath: 'Xmit Time Congestion' } },
  transmitWastedBandwidth: { side: 'transmit', names: { omnipath: 'Xmit Wasted BW' } },
  transmitWaitData: { side: 'transmit', names: { omnipath: 'Xmit Wait Data' } },
  receiveBubble: { side: 'receive', names: { omnipath: 'Rcv Bubble' } },
  linkQualityIndicator: { side: 'link', gauge: true, names: { omnipath: 'Link Qual Indicator' } },
  linkWidthDowngradeLanes: { side: 'link', gauge: true, names: { omnipath: 'Link Width Dngrd' } },
};

/** The cumulative counters, in the table's order (a plain module: no run-time import of metrics.ts). */
export const PORT_TOTAL_FIELDS = (Object.keys(PORT_FIGURE_NAMES) as PortFigure[]).filter(
  (f): f is PortTotalField => PORT_FIGURE_NAMES[f].gauge !== true,
);

/** The figures a port of this fabric kind has, in the table's order, each with its name there. */
export function figuresOf(kind: FabricType): { figure: PortFigure; name: string }[] {
  return (Object.keys(PORT_FIGURE_NAMES) as PortFigure[]).flatMap((figure) => {
    const name = PORT_FIGURE_NAMES[figure].names[kind];
    return name === undefined ? [] : [{ figure, name }];
  });
}
