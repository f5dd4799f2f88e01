import { type AdjustContext, adjustRoutes, type RoutedFlow } from './adaptive-routing.ts';
import {
  type AdaptiveRoutingConfig,
  adjustmentIntervalMs,
  applyAdaptiveRoutingPatch,
  DEFAULT_ADAPTIVE_ROUTING,
} from './ar-config.ts';

/** Adaptive routing's configuration and the schedule of its passes. */
export class AdaptiveRoutingPasses {
  config: AdaptiveRoutingConfig = { ...DEFAULT_ADAPTIVE_ROUTING };
  /** When the next pass is due (emulator ms); never while AR is off. */
  nextMs = Number.POSITIVE_INFINITY;
  /** The rates version at which a pass last moved nothing. */
  private settledAt = -1;

  /** Applies `patch` at `nowMs`; true when flows go back to their static paths. */
  set(patch: Partial<AdaptiveRoutingConfig>, nowMs: number): boolean {
    const before = this.config;
    const next = applyAdaptiveRoutingPatch(before, patch);
    this.config = next;
    this.settledAt = -1;
    if (!next.enabled) {
      this.nextMs = Number.POSITIVE_INFINITY;
    } else if (!before.enabled || before.arFrequency !== next.arFrequency) {
      // The first adjustment comes one full interval after AR is switched on (or re-timed).
      this.nextMs = nowMs + adjustmentIntervalMs(next.arFrequency);
    }
    return (before.enabled && !next.enabled) || (next.lostRouteOnly && !before.lostRouteOnly);
  }

  /** Whether a pass is due at `nowMs` (the schedule moves on by one interval when it is). */
  due(nowMs: number): boolean {
    if (this.nextMs > nowMs) return false;
    this.nextMs += adjustmentIntervalMs(this.config.arFrequency);
    return true;
  }

  /** One pass over the running flows at rates `version`; true when it moved any. */
  pass(running: RoutedFlow[], context: AdjustContext, version: number): boolean {
    // A pass that moved nothing moves nothing again until rates, routes or links change.
    if (this.settledAt === version) return false;
    const moves = adjustRoutes(running, this.config, context);
    if (moves === 0) this.settledAt = version;
    return moves > 0;
  }

  /** Whether a sweep keeps the paths adaptive routing chose while they are intact. */
  keepsAdaptivePaths(): boolean {
    return this.config.enabled && !this.config.lostRouteOnly;
  }
}
