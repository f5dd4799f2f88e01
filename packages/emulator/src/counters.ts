import type { FabricType } from '@fabscope/topology';

/** XmitData/RcvData unit by fabric: Omni-Path 8-byte flits, InfiniBand 4-octet words, Ethernet bytes. */
export const DATA_UNIT_BYTES: Readonly<Record<FabricType, number>> = {
  omnipath: 8,
  infiniband: 4,
  ethernet: 1,
};

/** Payload bytes per packet: large RDMA messages fill the MTU (PSM2 8 KiB, InfiniBand and RoCE 4 KiB). */
export const PACKET_PAYLOAD_BYTES: Readonly<Record<FabricType, number>> = {
  omnipath: 8192,
  infiniband: 4096,
  ethernet: 4096,
};

/** Exact counts wrapping at 2^64 as hardware does; the fraction carries over so totals never drift. */
export class Accumulator {
  readonly totals: BigUint64Array;
  private readonly carry: Float64Array;

  constructor(size: number) {
    this.totals = new BigUint64Array(size);
    this.carry = new Float64Array(size);
  }

  /** Adds `perSecond[i]` × dt to each index listed in `indices`. */
  accrue(indices: ArrayLike<number>, perSecond: ArrayLike<number>, dtMs: number): void {
    if (!(dtMs > 0)) return;
    const seconds = dtMs / 1000;
    for (let k = 0; k < indices.length; k++) {
      const i = indices[k] as number;
      this.addAmount(i, (perSecond[i] as number) * seconds);
    }
  }

  /** Adds a (fractional) amount to one index, carrying the fraction. */
  addAmount(index: number, amount: number): void {
    const total = amount + (this.carry[index] as number);
    if (!(total > 0)) return;
    const whole = Math.floor(total);
    this.carry[index] = total - whole;
    // The typed array keeps the total modulo 2^64.
    if (whole > 0) this.totals[index] = (this.totals[index] as bigint) + BigInt(whole);
  }

  add(index: number, amount: bigint): void {
    this.totals[index] = (this.totals[index] as bigint) + amount;
  }
}
