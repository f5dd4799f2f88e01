import { ERROR_FIELDS, type ErrorField } from '@fabscope/contracts/metrics';
/** One link direction's figures from its two ports' rates, by the Omni-Path PM's formula; unknown is null. */

import type { FabricType } from '../model/model.ts';
import {
  CATEGORY_NAMES,
  type CategoryValues,
  categoriesOf,
  type PmThresholdConfig,
} from './pm-categories.ts';

/** Per-second error, congestion and bubble rates and gauge values of one direction; null unknown. */
export type LinkErrorRates = Record<ErrorField, number | null>;

export type LinkErrorField = keyof LinkErrorRates;

/** One port's error rates (gauges as values), each absent when unknown. */
export type PortErrorRates = Partial<Record<LinkErrorField, number>>;

/** What a direction's figures are made of: one port's rates over one interval, null when unknown. */
export interface PortRateReading {
  transmitBytesPerSecond: number | null;
  receiveBytesPerSecond: number | null;
  transmitPacketsPerSecond: number | null;
  receivePacketsPerSecond: number | null;
  transmitWaitTicksPerSecond: number | null;
  /** Length of one XmitWait tick, seconds; null when the source does not know it. */
  transmitWaitTickSeconds: number | null;
  errors?: PortErrorRates | undefined;
}

/** Nothing known: shared by every direction neither of whose ports reports error counters. */
export const UNKNOWN_ERRORS: Readonly<LinkErrorRates> = Object.freeze(
  Object.fromEntries(ERROR_FIELDS.map((f) => [f, null])) as LinkErrorRates,
);

export const UNKNOWN_CATEGORIES: Readonly<CategoryValues> = Object.freeze(
  Object.fromEntries(CATEGORY_NAMES.map((c) => [c, null])) as CategoryValues,
);

/** Counters that are errors (Integrity, Security, Routing); a busy port discards and waits without a fault. */
export const ERROR_COUNTER_GROUPS: Readonly<
  Record<'integrity' | 'security' | 'routing', readonly LinkErrorField[]>
> = {
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
export const CONGESTION_COUNTERS: readonly LinkErrorField[] = [
  'transmitDiscards',
  'congestionDiscards',
  'receiveFecn',
  'receiveBecn',
  'markFecn',
  'transmitTimeCongestion',
  'vl15Dropped',
];

const ERROR_ONLY: readonly LinkErrorField[] = [
  ...ERROR_COUNTER_GROUPS.integrity,
  ...ERROR_COUNTER_GROUPS.security,
  ...ERROR_COUNTER_GROUPS.routing,
];

/**
 * Whether a network has PM categories: Ethernet has none, so they are null there. Its congestion share is the
 * XmitWait figure all the same (the time a port had data and could not send): PFC pause received on the
 * lossless priority, or tx-wait, where a source reports it with its tick (docs/metrics.md).
 */
export function measuresPmCategories(network: FabricType): boolean {
  return network !== 'ethernet';
}

/** The larger of two values, either unknown; null when both are. */
export function maxKnown(a: number | null | undefined, b: number | null | undefined): number | null {
  const x = a ?? null;
  const y = b ?? null;
  if (x === null) return y;
  if (y === null) return x;
  return Math.max(x, y);
}

/** XmitWait ticks/s × tick seconds, clamped to 0..1; null when either is unknown. */
export function waitFraction(ticksPerSecond: number | null, tickSeconds: number | null): number | null {
  if (ticksPerSecond === null || tickSeconds === null) return null;
  if (!Number.isFinite(ticksPerSecond) || !Number.isFinite(tickSeconds) || !(tickSeconds > 0)) return null;
  return Math.min(1, Math.max(0, ticksPerSecond * tickSeconds));
}

/**
 * The fraction of a link's data rate a direction carries; null when unknown. Never clamped: a
 * reading above the data rate is a timing fault to see and fix, not to hide.
 */
export function utilizationOf(bytesPerSecond: number | null, capacityBytesPerSecond: number): number | null {
  if (bytesPerSecond === null || !(capacityBytesPerSecond > 0)) return null;
  return bytesPerSecond / capacityBytesPerSecond;
}

/** A direction's traffic from its two ends. */
export interface DirectionTraffic {
  bytesPerSecond: number | null;
  packetsPerSecond: number | null;
  transmitWaitTicksPerSecond: number | null;
  transmitWaitFraction: number | null;
}

/** bytes and packets: max(sender's transmit, receiver's receive); XmitWait: the sender's. */
export function directionTraffic(
  sender: PortRateReading | undefined,
  receiver: PortRateReading | undefined,
): DirectionTraffic {
  const ticks = sender?.transmitWaitTicksPerSecond ?? null;
  return {
    bytesPerSecond: maxKnown(sender?.transmitBytesPerSecond, receiver?.receiveBytesPerSecond),
    packetsPerSecond: maxKnown(sender?.transmitPacketsPerSecond, receiver?.receivePacketsPerSecond),
    transmitWaitTicksPerSecond: ticks,
    transmitWaitFraction: waitFraction(ticks, sender?.transmitWaitTickSeconds ?? null),
  };
}

/** Errors per second of a direction, the error counters (ERROR_COUNTER_GROUPS) together; null when none is known. */
export function errorsPerSecond(errors: LinkErrorRates): number | null {
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

/** The counters of the direction sender → receiver, as one literal with every field (a fast object). */
export function directionErrors(
  sender: { errors?: PortErrorRates | undefined } | undefined,
  receiver: { errors?: PortErrorRates | undefined } | undefined,
): LinkErrorRates {
  const tx = sender?.errors;
  const rx = receiver?.errors;
  if (!tx && !rx) return UNKNOWN_ERRORS as LinkErrorRates;
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

/** On Omni-Path the PM weighs symbol errors through the link quality, so SymbolErrors weighs 0 there. */
export function categoryConfigFor(fabricType: FabricType, config: PmThresholdConfig): PmThresholdConfig {
  if (fabricType !== 'omnipath') return config;
  return { ...config, integrityWeights: { ...config.integrityWeights, SymbolErrors: 0 } };
}

/** The six PM categories of a direction (`config` from categoryConfigFor). */
export function directionCategories(
  errors: LinkErrorRates,
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
