/** Emulated CPU and memory of hosts and routers, calibrated on seed 000's router. */
export const CPU_COUNT = 56;
/** 12 × 16 GB DDR4 per node (seed 000's system configuration). */
export const MEMORY_TOTAL_BYTES = 192 * 1024 ** 3;
export const MEMORY_USED_FRACTION = 0.032;
/** Background load of an otherwise idle node. */
export const IDLE_BUSY = 0.002;
/** Router CPU share at line rate, on top of IDLE_BUSY: 8 % in all (seed 000). */
export const ROUTER_BUSY_AT_LINE_RATE = 0.078;
/** End-host CPU share for IP traffic at line rate in both directions (an assumption). */
export const HOST_IP_BUSY_AT_LINE_RATE = 0.05;

/** Share of all CPUs busy; rates in bytes/s. */
export function busyFraction(
  isRouter: boolean,
  forwarded: number,
  ipEndpoint: number,
  lineRate: number,
): number {
  if (!(lineRate > 0)) return IDLE_BUSY;
  const routing = isRouter ? (ROUTER_BUSY_AT_LINE_RATE * forwarded) / lineRate : 0;
  const stack = (HOST_IP_BUSY_AT_LINE_RATE * ipEndpoint) / (2 * lineRate);
  return Math.min(1, IDLE_BUSY + routing + stack);
}
