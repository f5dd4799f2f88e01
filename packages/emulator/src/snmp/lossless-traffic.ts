import type { EthernetPortCounters } from '../lossless-ports.ts';
import type { LosslessTraffic, PortTraffic } from './snmprec.ts';

/**
 * `traffic` with each Ethernet port's PFC pause frames and ECN marks as `after` counts them, their rates over the
 * `seconds` since `before` (none: still). A port `after` does not list keeps no lossless counters (none recorded).
 */
export function withLosslessTraffic(
  traffic: ReadonlyMap<string, PortTraffic>,
  before: readonly EthernetPortCounters[] | null,
  after: readonly EthernetPortCounters[],
  seconds: number,
): Map<string, PortTraffic> {
  const key = (p: EthernetPortCounters) => `${p.nodeName}/${p.portNumber}`;
  const earlier = new Map(before?.map((p) => [key(p), p]) ?? []);
  const result = new Map(traffic);
  for (const p of after) {
    const t = result.get(key(p));
    if (!t) continue;
    const was = earlier.get(key(p));
    // A counter that went back (the port's counters were reset) has no rate over the gap.
    const rate = (now: bigint, then: bigint | undefined) =>
      then === undefined || !(seconds > 0) || now < then ? 0 : Number(now - then) / seconds;
    const lossless: LosslessTraffic = {
      pauseReceived: p.rxPauseFrames,
      pauseSent: p.txPauseFrames,
      ecnMarked: p.ecnMarkedPackets,
      pauseReceivedRate: rate(p.rxPauseFrames, was?.rxPauseFrames),
      pauseSentRate: rate(p.txPauseFrames, was?.txPauseFrames),
      ecnMarkedRate: rate(p.ecnMarkedPackets, was?.ecnMarkedPackets),
    };
    result.set(key(p), { ...t, lossless });
  }
  return result;
}

/** Whether the lossless counters of `written` and `next` move at rates apart by more than `tolerance`. */
export function losslessMoved(
  written: LosslessTraffic | undefined,
  next: LosslessTraffic | undefined,
  tolerance: number,
): boolean {
  if (!written || !next) return written !== next;
  const moved = (a: number, b: number) => Math.abs(a - b) > tolerance * Math.max(a, b);
  return (
    moved(written.pauseReceivedRate, next.pauseReceivedRate) ||
    moved(written.pauseSentRate, next.pauseSentRate) ||
    moved(written.ecnMarkedRate, next.ecnMarkedRate)
  );
}

/** `next`'s lossless counters, none below where `written`'s rates have carried them over `seconds`. */
export function losslessCarriedOn(
  written: LosslessTraffic | undefined,
  next: LosslessTraffic | undefined,
  seconds: number,
): LosslessTraffic | undefined {
  if (!written || !next) return next;
  const reached = (value: bigint, rate: number) => value + BigInt(Math.round(rate * seconds));
  const max = (a: bigint, b: bigint) => (a > b ? a : b);
  return {
    ...next,
    pauseReceived: max(next.pauseReceived, reached(written.pauseReceived, written.pauseReceivedRate)),
    pauseSent: max(next.pauseSent, reached(written.pauseSent, written.pauseSentRate)),
    ecnMarked: max(next.ecnMarked, reached(written.ecnMarked, written.ecnMarkedRate)),
  };
}
