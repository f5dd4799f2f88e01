import type { JobReport, ReportDirection } from '@fabscope/contracts';
import type { ReportThresholds } from './thresholds.ts';

type Verdict = JobReport['verdict'];

/** Below this share of the window behind its worst direction, congestion is not what slowed a job. */
export const MIN_BEHIND_SHARE = 0.05;

/** Below this share of the window known, "no cause found" would claim more than the history holds. */
export const MIN_COVERED_SHARE = 0.5;

const pct = (x: number) => `${Math.round(100 * x)} %`;
const arrow = (id: string) => id.replace('->', ' → ');

/** How much of the window a direction hurt the job: congested, down or erroring. */
export function impactSeconds(d: ReportDirection): number {
  return d.behindSeconds + d.state.downSeconds + d.errors.erroredSeconds;
}

/** Whether a direction is a fabric cause at all: congested long enough, down, or erroring. */
export function isCause(d: ReportDirection, windowSeconds: number): boolean {
  return (
    d.behindSeconds >= MIN_BEHIND_SHARE * windowSeconds ||
    d.state.flaps > 0 ||
    d.state.downSeconds > 0 ||
    d.errors.raised > 0 ||
    d.errors.erroredSeconds > 0
  );
}

/** The plain sentence: the worst direction (first of `directions`), what it was, and the culprit on it. */
export function verdictOf(
  jobId: string,
  directions: readonly ReportDirection[],
  culprits: JobReport['culprits'],
  windowSeconds: number,
  t: ReportThresholds,
): Verdict {
  const worst = directions[0];
  if (!worst || directions.every((d) => d.knownSeconds === 0 && d.state.flaps === 0 && d.errors.raised === 0))
    return {
      cause: 'unknown',
      text: `nothing is known of job ${jobId}'s link directions in the window: no fabric cause can be found or ruled out`,
    };
  // A reduce, not Math.max(...): a big job's directions are more arguments than a call takes.
  const covered = directions.reduce((most, d) => Math.max(most, d.knownSeconds), 0) / windowSeconds;
  if (!isCause(worst, windowSeconds) && covered < MIN_COVERED_SHARE)
    return {
      cause: 'unknown',
      text: `no fabric cause found for job ${jobId} in the ${pct(covered)} of the window the history covers; the rest is unknown`,
    };
  if (!isCause(worst, windowSeconds))
    return {
      cause: 'none',
      text: `no fabric cause found for job ${jobId}: none of its ${directions.length} link directions was congested, erroring or down in the window`,
    };
  const name = arrow(worst.id);
  if (worst.state.flaps > 0 || worst.state.downSeconds > 0)
    return {
      cause: 'link-state',
      text: `job ${jobId}'s routes cross ${name}, which went down ${worst.state.flaps} time(s) (down ${pct(worst.state.downSeconds / windowSeconds)} of the window)`,
    };
  if (worst.errors.raised > 0 || worst.errors.erroredSeconds > 0)
    return {
      cause: 'errors',
      text: `job ${jobId}'s routes cross ${name}, whose error counters crossed their threshold ${worst.errors.raised} time(s) (erroring ${pct(worst.errors.erroredSeconds / windowSeconds)} of the window)`,
    };
  const hotUtil = worst.utilization.secondsAbove.find((s) => s.threshold === t.hotUtilization)?.seconds ?? 0;
  const how =
    hotUtil >= worst.behindSeconds / 2
      ? `at ≥ ${pct(t.hotUtilization)} utilization`
      : `with XmitWait ≥ ${pct(t.hotTransmitWait)}`;
  const culprit = culprits.find((c) => c.direction === worst.id);
  const who = culprit
    ? `job ${culprit.job}'s traffic carried ${pct(culprit.share)} of it`
    : worst.jobShare !== null && worst.jobShare >= 0.999
      ? 'its own traffic was all of it'
      : 'no other job is known to use it';
  return {
    cause: 'congestion',
    text: `job ${jobId} spent ${pct(worst.behindSeconds / windowSeconds)} of the window behind ${name} ${how}; ${who}`,
  };
}
