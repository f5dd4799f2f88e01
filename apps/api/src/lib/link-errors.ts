import {
  CATEGORY_NAMES,
  type CategoryValues,
  categoriesOf,
  categoryBucket,
  type FabricType,
  type PmThresholdConfig,
} from '@fabscope/topology';
import { ERROR_FIELDS, type ErrorField, type PortRates } from '../store/types.ts';

/** Per-counter rates of one link direction (gauges as values); null when unknown, never 0 for unknown. */
export type LinkErrors = Record<ErrorField, number | null>;

/** Nothing known: shared by every direction neither of whose ports reports error counters. */
export const UNKNOWN_ERRORS: Readonly<LinkErrors> = Object.freeze(
  Object.fromEntries(ERROR_FIELDS.map((f) => [f, null])) as LinkErrors,
);
export const UNKNOWN_CATEGORIES: Readonly<CategoryValues> = Object.freeze(
  Object.fromEntries(CATEGORY_NAMES.map((c) => [c, null])) as CategoryValues,
);

/**
 * Counters that are errors, by the PM category they belong to: Integrity (the link's and the
 * receiver's: symbol, receive, remote physical, local link integrity, buffer overrun, uncorrectable,
 * FM config errors, link recoveries and downs), Security (constraint errors) and Routing (switch
 * relay errors). Not errors: XmitDiscards and congestion discards, FECN/BECN, XmitWait (Congestion),
 * VL15 drops (SMA congestion), bubbles, and the gauges (LQI, lanes down): a busy port discards and
 * waits without anything being wrong with it, so those never make a direction "have errors".
 */
export const ERROR_COUNTERS: Readonly<Record<'integrity' | 'security' | 'routing', readonly ErrorField[]>> = {
  integrity: [
    'symbolErrors',
    'linkErrorRecovery',
    'linkDowned',
    'receiveErrors',
    'receiveRemotePhysicalErrors',
    'localLinkIntegrityErrors',
    'excessiveBufferOverrunErrors',
    'uncorrectableErrors',
    'fmConfigErrors',
  ],
  security: ['transmitConstraintErrors', 'receiveConstraintErrors'],
  routing: ['receiveSwitchRelayErrors'],
};

/** Congestion counters: what a busy port counts (shown as congestion, never as errors). */
export const CONGESTION_COUNTERS: readonly ErrorField[] = [
  'transmitDiscards',
  'congestionDiscards',
  'receiveFecn',
  'receiveBecn',
  'markFecn',
  'transmitTimeCongestion',
  'vl15Dropped',
];

const ERROR_ONLY: readonly ErrorField[] = [
  ...ERROR_COUNTERS.integrity,
  ...ERROR_COUNTERS.security,
  ...ERROR_COUNTERS.routing,
];

/**
 * Whether a network's ports count the time they wait for credit (XmitWait) and have the
 * performance manager's categories: Omni-Path and InfiniBand do; Ethernet has no credit-based flow
 * control and no PM, so its directions report both as unknown (null), never as a value.
 */
export function measuresWaitAndCategories(network: FabricType): boolean {
  return network !== 'ethernet';
}

/** Errors per second of a direction, the error counters (ERROR_COUNTERS) together; null when none is known. */
export function errorsPerSecond(errors: LinkErrors): number | null {
  let sum = 0;
  let known = false;
  for (const field of ERROR_ONLY) {
    const v = errors[field];
    if (v === null) continue;
    known = true;
    sum += v;
  }
  return known ? sum : null;
}

/** The lower (`lowest`) or higher of two known values; the known one; null when neither is. */
function pick(a: number | undefined, b: number | undefined, lowest: boolean): number | null {
  if (a === undefined) return b ?? null;
  if (b === undefined) return a;
  return lowest ? Math.min(a, b) : Math.max(a, b);
}

/**
 * The counters of the direction sender → receiver, from the two ports' rates: what the sending
 * port counts about what it sends (discards, constraint, congestion discards, Mark FECN, time
 * congestion, wasted bandwidth, wait data), what the receiving port counts about what it receives,
 * and the link's own state from the worse end (most downs and retrains, lowest quality, most lanes
 * down). An object literal with every field: a fast object, 166k of them per tick at fat-tree-27648.
 */
export function directionErrors(sender: PortRates | undefined, receiver: PortRates | undefined): LinkErrors {
  const tx = sender?.errors;
  const rx = receiver?.errors;
  if (!tx && !rx) return UNKNOWN_ERRORS as LinkErrors;
  return {
    symbolErrors: rx?.symbolErrors ?? null,
    linkErrorRecovery: pick(tx?.linkErrorRecovery, rx?.linkErrorRecovery, false),
    linkDowned: pick(tx?.linkDowned, rx?.linkDowned, false),
    receiveErrors: rx?.receiveErrors ?? null,
    transmitDiscards: tx?.transmitDiscards ?? null,
    receiveRemotePhysicalErrors: rx?.receiveRemotePhysicalErrors ?? null,
    receiveSwitchRelayErrors: rx?.receiveSwitchRelayErrors ?? null,
    transmitConstraintErrors: tx?.transmitConstraintErrors ?? null,
    receiveConstraintErrors: rx?.receiveConstraintErrors ?? null,
    localLinkIntegrityErrors: rx?.localLinkIntegrityErrors ?? null,
    excessiveBufferOverrunErrors: rx?.excessiveBufferOverrunErrors ?? null,
    vl15Dropped: rx?.vl15Dropped ?? null,
    uncorrectableErrors: rx?.uncorrectableErrors ?? null,
    fmConfigErrors: rx?.fmConfigErrors ?? null,
    congestionDiscards: tx?.congestionDiscards ?? null,
    receiveFecn: rx?.receiveFecn ?? null,
    receiveBecn: rx?.receiveBecn ?? null,
    markFecn: tx?.markFecn ?? null,
    transmitTimeCongestion: tx?.transmitTimeCongestion ?? null,
    transmitWastedBandwidth: tx?.transmitWastedBandwidth ?? null,
    transmitWaitData: tx?.transmitWaitData ?? null,
    receiveBubble: rx?.receiveBubble ?? null,
    linkQualityIndicator: pick(tx?.linkQualityIndicator, rx?.linkQualityIndicator, true),
    linkWidthDowngradeLanes: pick(tx?.linkWidthDowngradeLanes, rx?.linkWidthDowngradeLanes, false),
  };
}

/**
 * The thresholds and weights a fabric's categories are computed with. On Omni-Path, SymbolErrors
 * is the local link integrity count the PM weighs through the link quality instead (weight 0), so
 * its weight is 0 there; on InfiniBand, the link quality is not reported and SymbolErrorCounter
 * stands for it (docs/metrics.md, "Port categories").
 */
export function categoryConfigFor(fabricType: FabricType, config: PmThresholdConfig): PmThresholdConfig {
  if (fabricType !== 'omnipath') return config;
  return { ...config, integrityWeights: { ...config.integrityWeights, SymbolErrors: 0 } };
}

/** The six PM categories of a direction (`config` from categoryConfigFor). */
export function directionCategories(
  errors: LinkErrors,
  traffic: {
    transmitWaitFraction: number | null;
    packetsPerSecond: number | null;
    bytesPerSecond: number | null;
  },
  config: PmThresholdConfig,
): CategoryValues {
  if (errors === UNKNOWN_ERRORS && traffic.transmitWaitFraction === null)
    return UNKNOWN_CATEGORIES as CategoryValues;
  return categoriesOf(errors, config, {
    transmitWaitFraction: traffic.transmitWaitFraction,
    packetsPerSecond: traffic.packetsPerSecond,
    dataFlitsPerSecond: traffic.bytesPerSecond === null ? null : traffic.bytesPerSecond / 8,
  });
}

/** Per category and link kind, opatop's five bars (0/25/50/75/100+ % of threshold), and the unknown. */
export type CategoryHistograms = Record<
  (typeof CATEGORY_NAMES)[number],
  { isl: number[]; host: number[]; unknown: number }
>;

export function categoryHistograms(
  states: readonly { kind: string; categories: CategoryValues }[],
): CategoryHistograms {
  const out = Object.fromEntries(
    CATEGORY_NAMES.map((c) => [c, { isl: [0, 0, 0, 0, 0], host: [0, 0, 0, 0, 0], unknown: 0 }]),
  ) as CategoryHistograms;
  for (const state of states) {
    for (const name of CATEGORY_NAMES) {
      const value = state.categories[name];
      const entry = out[name];
      if (value === null) {
        entry.unknown++;
        continue;
      }
      const bars = state.kind === 'isl' ? entry.isl : entry.host;
      const b = categoryBucket(value);
      bars[b] = (bars[b] ?? 0) + 1;
    }
  }
  return out;
}
