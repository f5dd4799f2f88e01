import { DEFAULT_PM_THRESHOLDS, type PmThresholdConfig, SEVERITY_LEVELS } from '@fabscope/topology';

/** The figures a job's report judges a direction by; thresholds are fractions 0..1, lowest first. */
export interface ReportThresholds {
  utilization: readonly number[];
  /** At or above this utilization a direction is congested ("the job is behind it"). */
  hotUtilization: number;
  transmitWait: readonly number[];
  /** At or above this XmitWait share a direction is congested: the Congestion category's warning level. */
  hotTransmitWait: number;
}

/** Utilization bands the report counts time in; the "behind it at ≥ 95 %" is the top one. */
const UTILIZATION_BANDS = [0.5, 0.8, 0.95] as const;

/**
 * The XmitWait shares at which the Congestion category reaches each severity (1×, 3×, 10× its threshold), from the
 * same PM configuration the alarms use, so the report's "congested" is the alarms' warning.
 */
export function reportThresholds(config: PmThresholdConfig = DEFAULT_PM_THRESHOLDS): ReportThresholds {
  const weight = config.congestionWeights.XmitWaitPct;
  const threshold = config.thresholds.Congestion;
  const waitAt = weight > 0 && threshold > 0 ? threshold / (100 * weight) : Number.POSITIVE_INFINITY;
  const transmitWait = SEVERITY_LEVELS.map(([, at]) => at * waitAt)
    .filter((w) => w <= 1)
    .sort((a, b) => a - b);
  return {
    utilization: UTILIZATION_BANDS,
    hotUtilization: UTILIZATION_BANDS[UTILIZATION_BANDS.length - 1] as number,
    transmitWait,
    hotTransmitWait: transmitWait[0] ?? Number.POSITIVE_INFINITY,
  };
}
