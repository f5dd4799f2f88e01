import { PORT_COUNTER_NAMES } from '@fabscope/contracts/ports';
import type { FabricType } from '@fabscope/topology';
import { Accumulator, DATA_UNIT_BYTES, PACKET_PAYLOAD_BYTES } from './counters.ts';
import type { PortCounterReader } from './ports-document.ts';

export const COUNTER_COUNT = PORT_COUNTER_NAMES.length;
/** Positions in PORT_COUNTER_NAMES order. */
export const [XMIT_DATA, RCV_DATA, XMIT_PKTS, RCV_PKTS, XMIT_WAIT, SYMBOL, LER, DOWNED, RCV_ERR, DISCARDS] = [
  0, 1, 2, 3, 4, 5, 6, 7, 8, 9,
] as const;
export const [
  RCV_REMOTE_PHYS,
  RCV_SW_RELAY,
  XMIT_CONSTRAINT,
  RCV_CONSTRAINT,
  LOCAL_LINK_INTEGRITY,
  BUFFER_OVERRUN,
  VL15_DROPPED,
  UNCORRECTABLE,
  FM_CONFIG,
  LINK_QUALITY,
  LINK_WIDTH_DOWNGRADE,
] = [10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20] as const;
/** The cumulative counters end here; LinkQualityIndicator and LinkWidthDowngrade are gauges. */
export const CUMULATIVE_COUNT = LINK_QUALITY;

/** Error counters a fault raises at a constant rate while the link is up (faults.ts `ERROR_RATE_FAULTS`). */
export const DIRECT_ERROR_COUNTERS = [
  LOCAL_LINK_INTEGRITY,
  RCV_CONSTRAINT,
  RCV_SW_RELAY,
  VL15_DROPPED,
  BUFFER_OVERRUN,
  UNCORRECTABLE,
] as const;

/** The two gauges of a port, owned by the fault state (link-state.ts). */
export interface PortGauges {
  /** LinkQualityIndicator per port, 0..5. */
  linkQuality: Uint8Array;
  /** Lanes down per port (LinkWidthDowngrade), 0 at full width. */
  lanesDown: Uint8Array;
}

/** How fast each counter grows now, per channel; set by each rate recomputation (channel-load.ts). */
export interface CounterRates {
  /** Channels carrying traffic or waiting. */
  activeChannels: Int32Array;
  payload: Float64Array;
  waitTicks: Float64Array;
  extraPkts: Float64Array;
  ipBytes: Float64Array;
  ipPkts: Float64Array;
  /** Ports with symbol errors, and their error rates per second. */
  errorPorts: Int32Array;
  symbolRate: Float64Array;
  recoveryRate: Float64Array;
  rcvErrorRate: Float64Array;
  /** Ports with an error fault of DIRECT_ERROR_COUNTERS and link up; per counter, rates per port. */
  directPorts: Int32Array;
  directRates: readonly Float64Array[];
  /** Oversubscribed ports, since when, and their discard rate once past the grace time. */
  congested: readonly number[];
  congestedSince: Float64Array;
  discardRate: Float64Array;
}

/** How long a port must stay oversubscribed (waiting ≥ half the time) before packets hit HoQ lifetime. */
export const DISCARD_GRACE_MS = 1000;

/** Every port's cumulative counters, and their values at its last restart or clear, which it subtracts. */
export class PortCounterBank {
  /** Payload bytes and XmitWait ticks per channel; XmitData leaving a channel is the RcvData entering it (lossless). */
  private readonly bytes: Accumulator;
  private readonly waitTicks: Accumulator;
  private readonly extraPkts: Accumulator;
  private readonly ipBytes: Accumulator;
  private readonly ipPkts: Accumulator;
  /** The cumulative error counters, PORT_COUNTER_NAMES from SYMBOL to CUMULATIVE_COUNT. */
  private readonly errors: Accumulator[];
  /** Raw counter values at each port's last restart or clear, in PORT_COUNTER_NAMES order (data in bytes). */
  private readonly bases: BigUint64Array[];
  /** IP counter values at each port's last restart: tx bytes, rx bytes, tx pkts, rx pkts. */
  private readonly netBases: BigUint64Array[];
  private readonly mtu: bigint;
  private readonly unit: bigint;

  constructor(
    channelCount: number,
    fabricType: FabricType,
    private readonly gauges?: PortGauges,
  ) {
    this.bytes = new Accumulator(channelCount);
    this.waitTicks = new Accumulator(channelCount);
    this.extraPkts = new Accumulator(channelCount);
    this.ipBytes = new Accumulator(channelCount);
    this.ipPkts = new Accumulator(channelCount);
    this.errors = Array.from({ length: CUMULATIVE_COUNT - SYMBOL }, () => new Accumulator(channelCount));
    this.bases = Array.from({ length: COUNTER_COUNT }, () => new BigUint64Array(channelCount));
    this.netBases = Array.from({ length: 4 }, () => new BigUint64Array(channelCount));
    this.mtu = BigInt(PACKET_PAYLOAD_BYTES[fabricType]);
    this.unit = BigInt(DATA_UNIT_BYTES[fabricType]);
  }

  /** Adds the counts of `from`..`to` (ms) at the given rates. */
  accrue(from: number, to: number, rates: CounterRates): void {
    const dt = to - from;
    if (!(dt > 0)) return;
    const channels = rates.activeChannels;
    this.bytes.accrue(channels, rates.payload, dt);
    this.waitTicks.accrue(channels, rates.waitTicks, dt);
    this.extraPkts.accrue(channels, rates.extraPkts, dt);
    this.ipBytes.accrue(channels, rates.ipBytes, dt);
    this.ipPkts.accrue(channels, rates.ipPkts, dt);
    this.errorsOf(SYMBOL).accrue(rates.errorPorts, rates.symbolRate, dt);
    this.errorsOf(LER).accrue(rates.errorPorts, rates.recoveryRate, dt);
    this.errorsOf(RCV_ERR).accrue(rates.errorPorts, rates.rcvErrorRate, dt);
    DIRECT_ERROR_COUNTERS.forEach((counter, k) => {
      this.errorsOf(counter).accrue(rates.directPorts, rates.directRates[k] ?? [], dt);
    });
    const discards = this.errorsOf(DISCARDS);
    for (const c of rates.congested) {
      const overlap = to - Math.max(from, (rates.congestedSince[c] as number) + DISCARD_GRACE_MS);
      if (overlap > 0) discards.addAmount(c, ((rates.discardRate[c] as number) * overlap) / 1000);
    }
  }

  private errorsOf(counter: number): Accumulator {
    return this.errors[counter - SYMBOL] as Accumulator;
  }

  /** One more LinkDowned on port `out` (its link went down). */
  countLinkDowned(out: number): void {
    this.errorsOf(DOWNED).add(out, 1n);
  }

  /** One more LinkErrorRecovery on port `out` (its link retrained after a flap). */
  countRecovery(out: number): void {
    this.errorsOf(LER).add(out, 1n);
  }

  /** Raw cumulative values of a port (data in bytes), before restarts and clears. */
  readRaw(out: number, into: bigint[]): void {
    const sent = this.bytes.totals[out] as bigint;
    const received = this.bytes.totals[out ^ 1] as bigint;
    into[XMIT_DATA] = sent;
    into[RCV_DATA] = received;
    into[XMIT_PKTS] = sent / this.mtu + (this.extraPkts.totals[out] as bigint);
    into[RCV_PKTS] = received / this.mtu + (this.extraPkts.totals[out ^ 1] as bigint);
    into[XMIT_WAIT] = this.waitTicks.totals[out] as bigint;
    for (let i = SYMBOL; i < CUMULATIVE_COUNT; i++) into[i] = this.errorsOf(i).totals[out] as bigint;
    into[LINK_QUALITY] = BigInt(this.gauges?.linkQuality[out] ?? 5);
    into[LINK_WIDTH_DOWNGRADE] = BigInt(this.gauges?.lanesDown[out] ?? 0);
  }

  /** Values as the port shows them: raw minus the values at its last restart or clear (gauges as they are). */
  readPort(out: number, into: bigint[]): void {
    this.readRaw(out, into);
    for (let i = 0; i < CUMULATIVE_COUNT; i++)
      into[i] = BigInt.asUintN(64, (into[i] as bigint) - (this.bases[i]?.[out] as bigint));
  }

  /** A port's counters in the `GET /v1/ports` document's units (data in the fabric's data unit). */
  reader(): PortCounterReader {
    return (out, into) => {
      this.readPort(out, into);
      into[XMIT_DATA] = (into[XMIT_DATA] as bigint) / this.unit;
      into[RCV_DATA] = (into[RCV_DATA] as bigint) / this.unit;
    };
  }

  /** A host interface's IP counters since its OS booted: tx bytes, rx bytes, tx pkts, rx pkts. */
  ipCounters(out: number): bigint[] {
    return this.ipRaw(out).map((v, i) => BigInt.asUintN(64, v - (this.netBases[i]?.[out] as bigint)));
  }

  private ipRaw(out: number): bigint[] {
    const { ipBytes, ipPkts } = this;
    return [
      ipBytes.totals[out],
      ipBytes.totals[out ^ 1],
      ipPkts.totals[out],
      ipPkts.totals[out ^ 1],
    ] as bigint[];
  }

  /** Counters of one port start again from 0 (a clear by another tool; with `reboot`, the OS counters too). */
  reset(out: number, reboot: boolean): void {
    const raw: bigint[] = new Array(COUNTER_COUNT).fill(0n);
    this.readRaw(out, raw);
    for (let i = 0; i < CUMULATIVE_COUNT; i++) (this.bases[i] as BigUint64Array)[out] = raw[i] as bigint;
    if (reboot) for (const [i, v] of this.ipRaw(out).entries()) (this.netBases[i] as BigUint64Array)[out] = v;
  }
}
