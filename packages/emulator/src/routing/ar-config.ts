import type { AdaptiveRouting } from '@fabscope/contracts';
/**
 * Adaptive routing parameters, as opafm.xml's `<AdaptiveRouting>` section names them: Enable,
 * LostRouteOnly, Algorithm (0 Random, 1 Greedy, 2 GreedyRandom), ARFrequency (n: at least 2^n × 64 ms
 * between adjustments) and Threshold (0 firmware default, 1..7 = 100 … 55 % ISL load); the contract's
 * shape, which the API's /api/v1/adaptive-routing passes through.
 */
export type AdaptiveRoutingConfig = AdaptiveRouting;

/** Seed 002's opafm.xml, apart from Enable: Algorithm 2, ARFrequency 0, Threshold 7. */
export const DEFAULT_ADAPTIVE_ROUTING: Readonly<AdaptiveRoutingConfig> = Object.freeze({
  enabled: false,
  lostRouteOnly: false,
  algorithm: 2,
  arFrequency: 0,
  threshold: 7,
});

/**
 * ISL load (carried payload / payload capacity) at which adaptive routing starts moving flows,
 * by Threshold. opafm documents 0 as "use the firmware default" without a number; we take the
 * most tolerant setting, 100 %, the same as 1.
 */
export const THRESHOLD_LOAD: readonly number[] = [1, 1, 0.9, 0.8, 0.7, 0.65, 0.6, 0.55];

export const ALGORITHM_NAMES = ['Random', 'Greedy', 'GreedyRandom'] as const;

export class AdaptiveRoutingConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'AdaptiveRoutingConfigError';
  }
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

/**
 * Validates a partial update (e.g. a PUT body) and returns the whole new configuration.
 * Unknown keys are refused so a misspelt parameter is not silently ignored.
 */
export function applyAdaptiveRoutingPatch(
  current: AdaptiveRoutingConfig,
  patch: unknown,
): AdaptiveRoutingConfig {
  if (typeof patch !== 'object' || patch === null || Array.isArray(patch)) {
    throw new AdaptiveRoutingConfigError('adaptive routing settings must be a JSON object');
  }
  const next: AdaptiveRoutingConfig = { ...current };
  for (const [key, value] of Object.entries(patch)) {
    switch (key) {
      case 'enabled':
        next.enabled = flag(key, value);
        break;
      case 'lostRouteOnly':
        next.lostRouteOnly = flag(key, value);
        break;
      case 'algorithm':
        next.algorithm = integer(key, value, 2) as 0 | 1 | 2;
        break;
      case 'arFrequency':
        next.arFrequency = integer(key, value, 7);
        break;
      case 'threshold':
        next.threshold = integer(key, value, 7);
        break;
      default:
        throw new AdaptiveRoutingConfigError(
          `unknown adaptive routing setting "${key}"; known: enabled, lostRouteOnly, algorithm, arFrequency, threshold`,
        );
    }
  }
  return next;
}
