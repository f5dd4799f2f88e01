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

/** Per-channel counters; XmitData leaving a channel is the RcvData entering it (lossless). */
export class ChannelCounters {
  readonly bytes: BigUint64Array;
  readonly waitTicks: BigUint64Array;
  private readonly byteCarry: Float64Array;
  private readonly waitCarry: Float64Array;

  constructor(channelCount: number) {
    this.bytes = new BigUint64Array(channelCount);
    this.waitTicks = new BigUint64Array(channelCount);
    this.byteCarry = new Float64Array(channelCount);
    this.waitCarry = new Float64Array(channelCount);
  }

  accrue(
    channels: ArrayLike<number>,
    bytesPerSecond: ArrayLike<number>,
    waitTicksPerSecond: ArrayLike<number>,
    dtMs: number,
  ): void {
    if (!(dtMs > 0)) return;
    const seconds = dtMs / 1000;
    for (let i = 0; i < channels.length; i++) {
      const c = channels[i] as number;
      const bytes = (bytesPerSecond[c] as number) * seconds + (this.byteCarry[c] as number);
      const wholeBytes = Math.floor(bytes);
      this.byteCarry[c] = bytes - wholeBytes;
      if (wholeBytes > 0) this.bytes[c] = (this.bytes[c] as bigint) + BigInt(wholeBytes);
      const ticks = (waitTicksPerSecond[c] as number) * seconds + (this.waitCarry[c] as number);
      const wholeTicks = Math.floor(ticks);
      this.waitCarry[c] = ticks - wholeTicks;
      if (wholeTicks > 0) this.waitTicks[c] = (this.waitTicks[c] as bigint) + BigInt(wholeTicks);
    }
  }

  /** Payload bytes sent on a channel, in whole `unitBytes` units. */
  units(channel: number, unitBytes: number): bigint {
    return (this.bytes[channel] as bigint) / BigInt(unitBytes);
  }
}

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
      const amount = (perSecond[i] as number) * seconds + (this.carry[i] as number);
      if (!(amount > 0)) continue;
      const whole = Math.floor(amount);
      this.carry[i] = amount - whole;
      if (whole > 0) this.totals[i] = BigInt.asUintN(64, (this.totals[i] as bigint) + BigInt(whole));
    }
  }

  /** Adds a (fractional) amount to one index, carrying the fraction. */
  addAmount(index: number, amount: number): void {
    const total = amount + (this.carry[index] as number);
    if (!(total > 0)) return;
    const whole = Math.floor(total);
    this.carry[index] = total - whole;
    if (whole > 0) this.totals[index] = BigInt.asUintN(64, (this.totals[index] as bigint) + BigInt(whole));
  }

  add(index: number, amount: bigint): void {
    this.totals[index] = BigInt.asUintN(64, (this.totals[index] as bigint) + amount);
  }
}
