import { Accumulator } from './counters.ts';
import type { LosslessState } from './lossless.ts';

/** The priority RoCE deployments commonly make lossless (PFC) and map RoCE traffic to. */
export const ROCE_PRIORITY = 3;
/** PFC's largest pause time, in quanta of 512 bit times; switches refresh XOFF at half of it while full. */
const PAUSE_QUANTA = 65535;
/** One CNP per marked flow per 50 µs at most, the interval DCQCN's paper gives the notification point. */
export const CNPS_PER_SECOND = 20_000;

/** A flow as the lossless counters see it. */
export interface MarkedFlow {
  path: Int32Array;
  payload: number;
  extraPktsPerByte: number;
}

/** A port's lossless-Ethernet counters: pause on ROCE_PRIORITY, ECN marks, and its RoCE NIC's congestion counters. */
export interface LosslessPortCounters {
  rxPauseFrames: bigint;
  txPauseFrames: bigint;
  rxPauseMicroseconds: bigint;
  txPauseMicroseconds: bigint;
  /** Packets this port ECN-marked as it sent them (a switch egress). */
  ecnMarkedPackets: bigint;
  /** A host NIC's: marked RoCE packets received (np_ecn_marked_roce_packets), CNPs sent and handled. */
  ecnMarkedReceived: bigint;
  cnpSent: bigint;
  cnpHandled: bigint;
}

const FIELDS = ['pausedMicros', 'pauseFrames', 'ecnMarked', 'ecnReceived', 'cnpSent', 'cnpHandled'] as const;

/** Per channel: what grows now (per second) and the exact totals, with each port's values at its last reset. */
export class LosslessCounters {
  private readonly totals: Accumulator[];
  private readonly perSecond: Float64Array[];
  /** Per port, LosslessPortCounters' eight values at its last reset. */
  private readonly bases: BigUint64Array[];
  private active = new Int32Array(0);
  private readonly channelCount: number;

  constructor(
    /** Line rate per channel, bits/s. */
    private readonly bitsPerSecond: ArrayLike<number>,
    private readonly mtu: number,
  ) {
    const n = bitsPerSecond.length;
    this.channelCount = n;
    this.totals = FIELDS.map(() => new Accumulator(n));
    this.perSecond = FIELDS.map(() => new Float64Array(n));
    this.bases = Array.from({ length: 8 }, () => new BigUint64Array(n));
  }

  /** The rates at a new steady state: pause where `state` has it, marks and CNPs along the marked flows. */
  update(state: LosslessState | null, flows: readonly MarkedFlow[]): void {
    for (const rates of this.perSecond) rates.fill(0);
    if (state === null) {
      this.active = new Int32Array(0);
      return;
    }
    const [paused, frames, marks, received, sent, handled] = this.perSecond as [
      Float64Array,
      Float64Array,
      Float64Array,
      Float64Array,
      Float64Array,
      Float64Array,
    ];
    const touched = new Set<number>();
    for (let c = 0; c < this.channelCount; c++) {
      const share = state.pausedShare[c] as number;
      if (!(share > 0)) continue;
      paused[c] = share * 1e6;
      const pauseSeconds = (PAUSE_QUANTA * 512) / (this.bitsPerSecond[c] as number);
      frames[c] = (share * 2) / pauseSeconds;
      touched.add(c);
    }
    flows.forEach((flow, f) => {
      if (state.marked[f] !== 1 || !(flow.payload > 0)) return;
      const packets = flow.payload / this.mtu + flow.payload * flow.extraPktsPerByte;
      for (const c of flow.path) {
        if ((state.overload[c] as number) > 0) {
          marks[c] = (marks[c] as number) + packets;
          touched.add(c);
        }
      }
      const last = (flow.path[flow.path.length - 1] as number) ^ 1;
      const first = flow.path[0] as number;
      const cnps = Math.min(packets, CNPS_PER_SECOND);
      received[last] = (received[last] as number) + packets;
      sent[last] = (sent[last] as number) + cnps;
      handled[first] = (handled[first] as number) + cnps;
      touched.add(last).add(first);
    });
    this.active = Int32Array.from(touched);
  }

  accrue(dtMs: number): void {
    this.totals.forEach((total, k) => {
      total.accrue(this.active, this.perSecond[k] as Float64Array, dtMs);
    });
  }

  /** Raw totals of port `out` in LosslessPortCounters' order: pause received is its own channel's, pause
   * sent the one arriving at it. */
  private raw(out: number): bigint[] {
    const t = (k: number, c: number) => (this.totals[k] as Accumulator).totals[c] as bigint;
    const back = out ^ 1;
    return [t(1, out), t(1, back), t(0, out), t(0, back), t(2, out), t(3, out), t(4, out), t(5, out)];
  }

  read(out: number): LosslessPortCounters {
    const v = this.raw(out).map((raw, i) =>
      BigInt.asUintN(64, raw - ((this.bases[i] as BigUint64Array)[out] as bigint)),
    );
    return {
      rxPauseFrames: v[0] as bigint,
      txPauseFrames: v[1] as bigint,
      rxPauseMicroseconds: v[2] as bigint,
      txPauseMicroseconds: v[3] as bigint,
      ecnMarkedPackets: v[4] as bigint,
      ecnMarkedReceived: v[5] as bigint,
      cnpSent: v[6] as bigint,
      cnpHandled: v[7] as bigint,
    };
  }

  /** Port `out`'s counters start again from 0 (its device restarted or they were cleared). */
  reset(out: number): void {
    this.raw(out).forEach((raw, i) => {
      (this.bases[i] as BigUint64Array)[out] = raw;
    });
  }
}
