/**
 * The Omni-Path PM's six port categories as fractions of their thresholds, opafm's defaults (opa-ff
 * fm_xml.c pmInitConfig), summed per second so a threshold holds at any interval (docs/metrics.md).
 */

import type { ErrorField } from '@fabscope/contracts/metrics';
import { CATEGORY_NAMES, type CategoryName } from '@fabscope/contracts/names';

// Declared once, with the contract the API answers in; re-exported for topology's users.
export { CATEGORY_NAMES, type CategoryName };

/** Each category as a fraction of its threshold; null when none of its counters is known. */
export type CategoryValues = Record<CategoryName, number | null>;

/**
 * opafm's defaults (fm_xml.c pmInitConfig) of `<Thresholds>` (0 turns a category off: null),
 * `<IntegrityWeights>` and `<CongestionWeights>`; SymbolErrors is fabscope's (InfiniBand, docs/metrics.md).
 */
export const DEFAULT_PM_THRESHOLDS = {
  thresholds: {
    Integrity: 100,
    Congestion: 100,
    SmaCongestion: 100,
    Bubble: 100,
    Security: 10,
    Routing: 100,
  },
  integrityWeights: {
    LocalLinkIntegrityErrors: 0,
    RcvErrors: 100,
    ExcessiveBufferOverruns: 100,
    LinkErrorRecovery: 0,
    LinkDowned: 25,
    UncorrectableErrors: 100,
    FMConfigErrors: 100,
    LinkQualityIndicator: 40,
    LinkWidthDowngrade: 100,
    SymbolErrors: 1,
  },
  congestionWeights: {
    XmitWaitPct: 10,
    CongDiscards: 100,
    RcvFECNPct: 5,
    RcvBECNPct: 1,
    XmitTimeCongPct: 25,
    MarkFECNPct: 25,
  },
};
export type PmThresholdConfig = typeof DEFAULT_PM_THRESHOLDS;

/** One link direction's inputs: rates per second (gauges as values), null unknown; link-level ones from the worse end. */
export type CategoryInputs = Partial<Record<ErrorField, number | null> & TrafficInputs>;

// One weighted sum at a time, without allocating: categoriesOf runs per link direction per tick.
let sum = 0;
let known = false;

function begin(): void {
  sum = 0;
  known = false;
}

function add(value: number | null | undefined, weight: number): void {
  if (value === null || value === undefined || !Number.isFinite(value)) return;
  known = true;
  sum += value * weight;
}

function total(): number | null {
  return known ? sum : null;
}

/** part / whole in percent; null when either is unknown, 0 when nothing moved. */
function percentOf(part: number | null | undefined, whole: number | null | undefined): number | null {
  if (part === null || part === undefined || whole === null || whole === undefined) return null;
  if (!(whole > 0)) return part > 0 ? 100 : 0;
  return Math.min(100, (100 * part) / whole);
}

/** part / (data + part) in percent, as the PM's bubble and time-congestion shares. */
function shareOf(part: number | null | undefined, data: number | null | undefined): number | null {
  if (part === null || part === undefined || data === null || data === undefined) return null;
  return percentOf(part, data + part);
}

function fraction(value: number | null, threshold: number): number | null {
  if (value === null || !(threshold > 0)) return null;
  return Math.max(0, value) / threshold;
}

/** What the traffic of the direction contributes, when it is kept apart from the counters. */
export interface TrafficInputs {
  /** Share of the interval (0..1) the sending port waited for credit (XmitWait). */
  transmitWaitFraction: number | null;
  /** Packets/s sent along the direction, for the FECN/BECN shares. */
  packetsPerSecond: number | null;
  /** Flits (8-byte units)/s of data sent along the direction, for the bubble and time-congestion shares. */
  dataFlitsPerSecond: number | null;
}

/** The six categories of one link direction as fractions of their thresholds (docs/metrics.md). */
export function categoriesOf(
  input: CategoryInputs,
  config: PmThresholdConfig = DEFAULT_PM_THRESHOLDS,
  traffic?: TrafficInputs,
): CategoryValues {
  const iw = config.integrityWeights;
  const cw = config.congestionWeights;
  const t = config.thresholds;
  const wait = traffic ? traffic.transmitWaitFraction : input.transmitWaitFraction;
  const packets = traffic ? traffic.packetsPerSecond : input.packetsPerSecond;
  const data = traffic ? traffic.dataFlitsPerSecond : input.dataFlitsPerSecond;
  const lqi = input.linkQualityIndicator;

  begin();
  add(input.receiveErrors, iw.RcvErrors);
  add(input.excessiveBufferOverrunErrors, iw.ExcessiveBufferOverruns);
  add(input.linkDowned, iw.LinkDowned);
  add(input.uncorrectableErrors, iw.UncorrectableErrors);
  add(input.fmConfigErrors, iw.FMConfigErrors);
  add(input.localLinkIntegrityErrors, iw.LocalLinkIntegrityErrors);
  add(input.linkErrorRecovery, iw.LinkErrorRecovery);
  add(input.symbolErrors, iw.SymbolErrors);
  add(lqi === null || lqi === undefined ? null : Math.max(0, 5 - lqi), iw.LinkQualityIndicator);
  add(input.linkWidthDowngradeLanes, iw.LinkWidthDowngrade);
  const integrity = total();

  begin();
  add(wait === null || wait === undefined ? null : 100 * wait, cw.XmitWaitPct);
  add(input.congestionDiscards, cw.CongDiscards);
  add(percentOf(input.receiveFecn, packets), cw.RcvFECNPct);
  add(percentOf(input.receiveBecn, packets), cw.RcvBECNPct);
  add(shareOf(input.transmitTimeCongestion, data), cw.XmitTimeCongPct);
  add(percentOf(input.markFecn, packets), cw.MarkFECNPct);
  const congestion = total();

  begin();
  add(input.vl15Dropped, cw.CongDiscards);
  const smaCongestion = total();

  begin();
  add(input.transmitWastedBandwidth, 1);
  add(input.transmitWaitData, 1);
  const xmit = shareOf(total(), data);
  const rcv = shareOf(input.receiveBubble, data);
  const bubble = xmit === null && rcv === null ? null : 10 * Math.max(xmit ?? 0, rcv ?? 0);

  begin();
  add(input.transmitConstraintErrors, 1);
  add(input.receiveConstraintErrors, 1);
  const security = total();

  begin();
  add(input.receiveSwitchRelayErrors, 1);
  const routing = total();

  return {
    integrity: fraction(integrity, t.Integrity),
    congestion: fraction(congestion, t.Congestion),
    smaCongestion: fraction(smaCongestion, t.SmaCongestion),
    bubble: fraction(bubble, t.Bubble),
    security: fraction(security, t.Security),
    routing: fraction(routing, t.Routing),
  };
}

export type Severity = 'warning' | 'error' | 'critical';

/** Fractions of threshold at which a category's state becomes each severity. */
export const SEVERITY_LEVELS: readonly [Severity, number][] = [
  ['critical', 10],
  ['error', 3],
  ['warning', 1],
];

/** The severity of a category value (fraction of threshold), or null below the threshold. */
export function severityOf(value: number | null): Severity | null {
  if (value === null) return null;
  for (const [severity, at] of SEVERITY_LEVELS) if (value >= at) return severity;
  return null;
}

/** opatop's five bars: [0,25) [25,50) [50,75) [75,100) and ≥ 100 % of threshold. */
export function categoryBucket(value: number): number {
  if (!(value >= 0)) return 0;
  return Math.min(4, Math.floor(value * 4));
}
