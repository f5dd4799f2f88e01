import { PORT_FIGURE_NAMES } from '@fabscope/contracts/counter-names';
import { ERROR_COUNTERS as CONTRACT_ERROR_COUNTERS, PORT_GAUGES } from '@fabscope/contracts/metrics';
import type { PortCounterName } from '@fabscope/contracts/ports';

/** A port's error, congestion and bubble counter (the contract's names), named in every source's vocabulary. */
export interface ErrorCounterSpec {
  /** Prometheus family (counters end in `_total`; the two gauges do not). */
  family: string;
  type: 'counter' | 'gauge';
  help: string;
  /** perfquery / sysfs PortCounters(Extended) field name, when InfiniBand has the counter. */
  perfquery?: string;
  /** Names `opapmaquery -o getportstatus` prints it under (versions differ), when Omni-Path has it. */
  opapmaquery?: readonly string[];
  /** The emulator's `GET /v1/ports` counter name. */
  emulator?: PortCounterName;
}

const SPECS = {
  symbolErrors: {
    help: 'Minor link errors detected on the port (SymbolErrorCounter; Omni-Path LocalLinkIntegrityErrors)',
    opapmaquery: ['Local Link Integ Err', 'Local Link Integrity Errors'],
    emulator: 'SymbolErrors',
  },
  linkErrorRecovery: {
    help: 'Times the link completed error recovery (LinkErrorRecoveryCounter)',
    opapmaquery: ['Link Error Recovery'],
    emulator: 'LinkErrorRecovery',
  },
  linkDowned: {
    help: 'Times the link went down (LinkDownedCounter)',
    opapmaquery: ['Link Downed'],
    emulator: 'LinkDowned',
  },
  receiveErrors: {
    help: 'Packets with errors received on the port (PortRcvErrors)',
    opapmaquery: ['Rcv Errors'],
    emulator: 'RcvErrors',
  },
  transmitDiscards: {
    help: 'Outbound packets discarded by the port (PortXmitDiscards)',
    opapmaquery: ['Xmit Discards'],
    emulator: 'XmitDiscards',
  },
  receiveRemotePhysicalErrors: {
    help: 'Packets received marked bad by the far end (PortRcvRemotePhysicalErrors)',
    opapmaquery: ['Rcv Rmt Phys Err', 'Rcv Remote Phys Errors'],
    emulator: 'RcvRemotePhysicalErrors',
  },
  receiveSwitchRelayErrors: {
    help: 'Received packets the switch could not forward (PortRcvSwitchRelayErrors): routing',
    opapmaquery: ['Rcv Sw Relay Err', 'Rcv Sw Relay Errors'],
    emulator: 'RcvSwitchRelayErrors',
  },
  transmitConstraintErrors: {
    help: 'Packets not sent because of partition or filtering constraints (PortXmitConstraintErrors): security',
    opapmaquery: ['Xmit Constraint', 'Xmit Constraint Errors'],
    emulator: 'XmitConstraintErrors',
  },
  receiveConstraintErrors: {
    help: 'Received packets dropped by partition or filtering constraints (PortRcvConstraintErrors): security',
    opapmaquery: ['Rcv Constraint', 'Rcv Constraint Errors'],
    emulator: 'RcvConstraintErrors',
  },
  localLinkIntegrityErrors: {
    help: 'Times local physical errors exceeded their threshold (LocalLinkIntegrityErrors)',
    opapmaquery: ['Local Link Integ Err', 'Local Link Integrity Errors'],
    emulator: 'LocalLinkIntegrityErrors',
  },
  excessiveBufferOverrunErrors: {
    help: 'Times the receive buffer overran on consecutive flow-control updates (ExcessiveBufferOverrunErrors)',
    opapmaquery: ['Exc. Buffer Overrun', 'Excessive Buffer Overruns'],
    emulator: 'ExcessiveBufferOverruns',
  },
  vl15Dropped: {
    help: 'Incoming VL15 (subnet management) packets dropped (VL15Dropped; InfiniBand only)',
    emulator: 'VL15Dropped',
  },
  uncorrectableErrors: {
    help: 'Uncorrectable errors on the link (Omni-Path UncorrectableErrors)',
    opapmaquery: ['Uncorrectable Errors'],
    emulator: 'UncorrectableErrors',
  },
  fmConfigErrors: {
    help: 'Errors from a fabric-manager misconfiguration of the port (Omni-Path FMConfigErrors)',
    opapmaquery: ['FM Config Errors'],
    emulator: 'FMConfigErrors',
  },
  congestionDiscards: {
    help: 'Packets a switch port discarded for congestion (Omni-Path SwPortCongestion, "Congestion Discards")',
    opapmaquery: ['Congestion Discards'],
  },
  receiveFecn: {
    help: 'Packets received with the forward congestion notification bit (Omni-Path PortRcvFECN)',
    opapmaquery: ['Rcv FECN'],
  },
  receiveBecn: {
    help: 'Packets received with the backward congestion notification bit (Omni-Path PortRcvBECN)',
    opapmaquery: ['Rcv BECN'],
  },
  markFecn: {
    help: 'Packets the port marked with FECN (Omni-Path PortMarkFECN)',
    opapmaquery: ['Mark FECN'],
  },
  transmitTimeCongestion: {
    help: 'Ticks the port spent in congestion (Omni-Path PortXmitTimeCong)',
    opapmaquery: ['Xmit Time Congestion', 'Xmit Time Cong'],
  },
  transmitWastedBandwidth: {
    help: 'Flit times sent idle with packets waiting (Omni-Path PortXmitWastedBW): bubble',
    opapmaquery: ['Xmit Wasted BW'],
  },
  transmitWaitData: {
    help: 'Flit times waiting for the rest of a packet (Omni-Path PortXmitWaitData): bubble',
    opapmaquery: ['Xmit Wait Data'],
  },
  receiveBubble: {
    help: 'Flit times received idle inside a packet (Omni-Path PortRcvBubble): bubble',
    opapmaquery: ['Rcv Bubble'],
  },
  linkQualityIndicator: {
    type: 'gauge',
    help: 'Link quality, 5 excellent to 0 down (Omni-Path LinkQualityIndicator)',
    emulator: 'LinkQualityIndicator',
  },
  linkWidthDowngradeLanes: {
    type: 'gauge',
    help: 'Lanes of the link that are down, 0 at full width (Omni-Path link width downgrade)',
    emulator: 'LinkWidthDowngrade',
  },
} as const satisfies Record<
  keyof typeof CONTRACT_ERROR_COUNTERS | keyof typeof PORT_GAUGES,
  Omit<ErrorCounterSpec, 'family' | 'type' | 'perfquery'> & { type?: 'gauge' }
>;

export type ErrorCounterKey = keyof typeof SPECS;
export const ERROR_COUNTER_KEYS = Object.keys(SPECS) as ErrorCounterKey[];
/** Each counter's family is the contract's, by the name the API reports it under; the type, counter unless a gauge. */
const FAMILY: Record<ErrorCounterKey, string> = { ...CONTRACT_ERROR_COUNTERS, ...PORT_GAUGES };
// perfquery's field names have one home, the port page's table in contracts.
export const ERROR_COUNTERS = Object.fromEntries(
  ERROR_COUNTER_KEYS.map((key) => [
    key,
    {
      type: 'counter',
      ...SPECS[key],
      perfquery: PORT_FIGURE_NAMES[key].names.infiniband,
      family: FAMILY[key],
    },
  ]),
) as Record<ErrorCounterKey, ErrorCounterSpec>;

/** Error counters of one port, each absent when the source does not report it. */
export type PortErrorCounters = Partial<Record<ErrorCounterKey, number>>;

/** Reads every counter the `named` lookup has (by the source's own name for it). */
export function errorCountersFrom(
  nameOf: (spec: ErrorCounterSpec) => readonly string[] | undefined,
  lookup: (name: string) => number | undefined,
): PortErrorCounters {
  const out: PortErrorCounters = {};
  for (const key of ERROR_COUNTER_KEYS) {
    for (const name of nameOf(ERROR_COUNTERS[key]) ?? []) {
      const value = lookup(name);
      if (value !== undefined && Number.isFinite(value)) {
        out[key] = value;
        break;
      }
    }
  }
  return out;
}
