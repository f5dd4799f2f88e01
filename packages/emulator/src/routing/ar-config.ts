import type { AdaptiveRouting } from '@fabscope/contracts';
/** Adaptive routing parameters as opafm.xml's `<AdaptiveRouting>` names them (the contract's shape). */
export type AdaptiveRoutingConfig = AdaptiveRouting;

/** Seed 002's opafm.xml, apart from Enable: Algorithm 2, ARFrequency 0, Threshold 7. */
export const DEFAULT_ADAPTIVE_ROUTING: Readonly<AdaptiveRoutingConfig> = Object.freeze({
  enabled: false,
  lostRouteOnly: false,
  algorithm: 2,
  arFrequency: 0,
  threshold: 7,
});

/** ISL load at which AR moves flows, by Threshold; opafm's 0 ("firmware default") taken as 100 %. */
const THRESHOLD_LOAD: readonly number[] = [1, 1, 0.9, 0.8, 0.7, 0.65, 0.6, 0.55];

export class AdaptiveRoutingConfigError extends Error {
  override name = 'AdaptiveRoutingConfigError';
}

/** Minimum time between two adjustments: 2^arFrequency × 64 ms. */
export function adjustmentIntervalMs(arFrequency: number): number {
  return 64 * 2 ** arFrequency;
}

export function thresholdLoad(threshold: number): number {
  return THRESHOLD_LOAD[threshold] ?? 1;
}

function flag(name: string, value: unknown): boolean {
  if (value === true || value === 1) return true;
  if (value === false || value === 0) return false;
  throw new AdaptiveRoutingConfigError(`${name} must be true, false, 1 or 0, got ${JSON.stringify(value)}`);
}

function integer(name: string, value: unknown, max: number): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > max) {
    throw new AdaptiveRoutingConfigError(
      `${name} must be an integer 0..${max}, got ${JSON.stringify(value)}`,
    );
  }
  return value;
}

/** Each setting's check, in the order an unknown key's refusal lists them. */
const SETTINGS: Record<keyof AdaptiveRoutingConfig, (name: string, value: unknown) => number | boolean> = {
  enabled: flag,
  lostRouteOnly: flag,
  algorithm: (name, value) => integer(name, value, 2),
  arFrequency: (name, value) => integer(name, value, 7),
  threshold: (name, value) => integer(name, value, 7),
};

/** Validates a partial update and returns the whole new configuration; unknown keys are refused. */
export function applyAdaptiveRoutingPatch(
  current: AdaptiveRoutingConfig,
  patch: unknown,
): AdaptiveRoutingConfig {
  if (typeof patch !== 'object' || patch === null || Array.isArray(patch)) {
    throw new AdaptiveRoutingConfigError('adaptive routing settings must be a JSON object');
  }
  const next: Record<string, unknown> = { ...current };
  for (const [key, value] of Object.entries(patch)) {
    if (!Object.hasOwn(SETTINGS, key)) {
      throw new AdaptiveRoutingConfigError(
        `unknown adaptive routing setting "${key}"; known: ${Object.keys(SETTINGS).join(', ')}`,
      );
    }
    next[key] = SETTINGS[key as keyof AdaptiveRoutingConfig](key, value);
  }
  return next as AdaptiveRoutingConfig;
}
