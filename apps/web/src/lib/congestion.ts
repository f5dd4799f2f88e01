/**
 * Congestion as XmitWait shows it: the share of time a sending port had data queued and no
 * flow-control credit. At or above CONGESTED_WAIT a direction is marked congested (table, drawing).
 */
export const CONGESTED_WAIT = 0.1;

/** Whether a direction counts as congested; unknown (null) never does. */
export function isCongested(waitFraction: number | null | undefined): boolean {
  return typeof waitFraction === 'number' && Number.isFinite(waitFraction) && waitFraction >= CONGESTED_WAIT;
}
