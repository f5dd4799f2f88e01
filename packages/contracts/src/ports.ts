// The emulator's `GET /v1/ports` (docs/architecture.md) as plain constants and types
// (`@fabscope/contracts/ports`): the emulator writes it, the fabric collector reads it, as JSON or
// as an Arrow stream. Imports nothing but the plain names.
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
 * Counter names, as Omni-Path's PM (opapmaquery) names them; the InfiniBand PortCounters /
 * PortCountersExtended name (perfquery) in brackets:
 * XmitData [PortXmitData], RcvData [PortRcvData] in `dataUnitBytes` units; XmitPkts [PortXmitPkts],
 * RcvPkts [PortRcvPkts]; XmitWait [PortXmitWait] in ticks; SymbolErrors [SymbolErrorCounter];
 * LinkErrorRecovery [LinkErrorRecoveryCounter]; LinkDowned [LinkDownedCounter]; RcvErrors
 * [PortRcvErrors]; XmitDiscards [PortXmitDiscards]; RcvRemotePhysicalErrors
 * [PortRcvRemotePhysicalErrors]; RcvSwitchRelayErrors [PortRcvSwitchRelayErrors];
 * XmitConstraintErrors [PortXmitConstraintErrors]; RcvConstraintErrors [PortRcvConstraintErrors];
 * LocalLinkIntegrityErrors [LocalLinkIntegrityErrors]; ExcessiveBufferOverruns
 * [ExcessiveBufferOverrunErrors]; VL15Dropped (InfiniBand only); UncorrectableErrors and
 * FMConfigErrors (Omni-Path only). All 64-bit cumulative.
 *
 * Then two gauges of the Omni-Path PM, not counters: LinkQualityIndicator (0..5, 5 excellent) and
 * LinkWidthDowngrade (lanes down, 0 when the link runs at full width). A port shows only the names
 * its fabric has: an InfiniBand port has no FMConfigErrors, an Ethernet port none of the
 * InfiniBand error counters; a counter a fabric lacks is absent, never 0.
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
 * `GET /v1/ports?format=arrow`: the document as one Apache Arrow IPC stream, a row per port in the
 * JSON document's order, columns named as its fields. These never change between answers of one
 * emulator (the far end flattened to `remote…`); then `linkUp` (1 or 0) and one column per counter
 * of PORT_COUNTER_NAMES a port has (uint64, null where the port's fabric lacks it). The schema's
 * metadata holds the document's own fields (fabric, fabricType, timeMs, dataUnitBytes) and `fixed`:
 * a name for the fixed columns, the same in every answer of one encoder.
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
