// The emulator's `GET /v1/ports`, which the fabric collector reads as JSON or as an Arrow stream.
import type { FabricType, NodeType } from './names.ts';

/** The answer of `GET /v1/ports`. */
export interface PortCountersDocument {
  fabric: string;
  fabricType: FabricType;
  /** The emulator clock (Unix ms in real-time mode). */
  timeMs: number;
  /** XmitData/RcvData unit: 8 (OPA flits), 4 (IB 4-octet words), 1 (Ethernet). */
  dataUnitBytes: number;
  ports: PortEntry[];
}

/** One cabled port of the document. */
export interface PortEntry {
  nodeGuid: string;
  nodeName: string;
  nodeType: NodeType;
  portNumber: number;
  lid: number;
  rateGbps: number;
  linkState: 'active' | 'down';
  remote: { nodeGuid: string; nodeName: string; portNumber: number } | null;
  /** The network the port's cable belongs to (differs from the fabric's on a router's Ethernet NIC). */
  fabricType: FabricType;
  /** Unsigned 64-bit decimal strings, cumulative since the device started or the last clear. */
  counters: PortCounters;
}

/** The counters every port has, whatever its fabric. */
export const PORT_DATA_COUNTERS = ['XmitData', 'RcvData', 'XmitPkts', 'RcvPkts', 'XmitWait'] as const;

/**
 * Counters as Omni-Path's PM (opapmaquery) names them (error-counters.ts maps them to perfquery's), 64-bit cumulative;
 * gauges LinkQualityIndicator (0..5, 5 best), LinkWidthDowngrade (lanes down). A lacking counter is absent, never 0.
 */
export const PORT_COUNTER_NAMES = [
  ...PORT_DATA_COUNTERS,
  'SymbolErrors',
  'LinkErrorRecovery',
  'LinkDowned',
  'RcvErrors',
  'XmitDiscards',
  'RcvRemotePhysicalErrors',
  'RcvSwitchRelayErrors',
  'XmitConstraintErrors',
  'RcvConstraintErrors',
  'LocalLinkIntegrityErrors',
  'ExcessiveBufferOverruns',
  'VL15Dropped',
  'UncorrectableErrors',
  'FMConfigErrors',
  'LinkQualityIndicator',
  'LinkWidthDowngrade',
] as const;
export type PortCounterName = (typeof PORT_COUNTER_NAMES)[number];
export type PortCounters = Partial<Record<PortCounterName, string>> &
  Record<(typeof PORT_DATA_COUNTERS)[number], string>;

/** The gauges among PORT_COUNTER_NAMES: small numbers (uint8 in the Arrow form), not counters. */
export const PORT_GAUGE_NAMES: readonly PortCounterName[] = ['LinkQualityIndicator', 'LinkWidthDowngrade'];

/**
 * `GET /v1/ports?format=arrow`: a row per port, these fixed columns (far end as `remote…`), `linkUp` (1/0), then a
 * uint64 column per counter (null if lacking). Metadata: the document's fields and `fixed`, naming an encoder's set.
 */
export const PORTS_ARROW_FIXED_COLUMNS = [
  'nodeGuid',
  'nodeName',
  'nodeType',
  'portNumber',
  'lid',
  'rateGbps',
  'fabricType',
  'remoteNodeGuid',
  'remoteNodeName',
  'remotePortNumber',
] as const;
export type PortsArrowFixedColumn = (typeof PORTS_ARROW_FIXED_COLUMNS)[number];
export const PORTS_ARROW_LINK_UP = 'linkUp';
