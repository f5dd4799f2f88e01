import { PMA_CAP2_ADDITIONAL_PORT_COUNTERS_EXTENDED } from './ib-pm-counters.ts';
import { PMA_CAP_XMIT_WAIT } from './ib-port-info.ts';
import { PortInfoCache } from './ib-port-info-cache.ts';
import {
  HAS_CAPABILITIES,
  HAS_EXTENDED_ERRORS,
  HAS_PORT_COUNTERS,
  HAS_PORT_COUNTERS_EXTENDED,
  HAS_SAMPLES_CONTROL,
  HAS_XMIT_WAIT,
  OFF,
  RECORD_SIZE,
  setFailure,
} from './ib-port-record.ts';

/** The ports a sweep reads, with their distinct LIDs and the order their MADs go out in. */
export interface SweepTargets {
  lids: Uint16Array;
  ports: Uint8Array;
  /** Distinct LIDs of the targets, and each target's index in it. */
  lidList: Uint16Array;
  lidOfTarget: Int32Array;
  /** The targets in the order their MADs go out: one port of each LID in turn. */
  order: Int32Array;
  /** 1 where the target is a switch's port. */
  switches: Uint8Array;
  /** The targets of distinct LID l: lidTargets[lidStart[l]] up to lidTargets[lidStart[l + 1]], the first first. */
  lidStart: Int32Array;
  lidTargets: Int32Array;
}

export function sweepTargets(
  lids: Uint16Array,
  ports: Uint8Array,
  switches: Uint8Array = new Uint8Array(lids.length),
): SweepTargets {
  if (lids.length !== ports.length || lids.length !== switches.length)
    throw new RangeError('one port number and kind per LID');
  const index = new Map<number, number>();
  const lidOfTarget = new Int32Array(lids.length);
  for (let i = 0; i < lids.length; i++) {
    const lid = lids[i] as number;
    let l = index.get(lid);
    if (l === undefined) {
      l = index.size;
      index.set(lid, l);
    }
    lidOfTarget[i] = l;
  }
  // Round-robin over the LIDs: a window of MADs is spread over as many switches as it can be,
  // rather than queueing a whole switch's ports at one management agent.
  const byLid: number[][] = Array.from({ length: index.size }, () => []);
  for (let i = 0; i < lids.length; i++) byLid[lidOfTarget[i] as number]?.push(i);
  const order = new Int32Array(lids.length);
  let k = 0;
  for (let round = 0; k < lids.length; round++) {
    for (const list of byLid) if (round < list.length) order[k++] = list[round] as number;
  }
  const lidStart = new Int32Array(byLid.length + 1);
  byLid.forEach((list, l) => {
    lidStart[l + 1] = (lidStart[l] as number) + list.length;
  });
  const lidTargets = Int32Array.from(byLid.flat());
  const lidList = Uint16Array.from(index.keys());
  return { lids, ports, switches, lidList, lidOfTarget, order, lidStart, lidTargets };
}

/** What is known of each distinct LID across sweeps (capability masks, Mellanox extension) and its probes' failures. */
export class LidKnowledge {
  readonly capsKnown: Uint8Array;
  readonly capMask: Uint32Array;
  readonly capMask2: Uint16Array;
  readonly capsFailure: Uint8Array;
  readonly capsStatus: Uint16Array;
  readonly pmaKnown: Uint8Array;
  readonly pmaCapMask: Uint16Array;
  readonly pmaCapMask2: Uint32Array;
  /** The LID's PMA refused or ignored PortSamplesControl: not asked again (ibsim has none). */
  readonly samplesUnsupported: Uint8Array;
  readonly pmaFailure: Uint8Array;
  readonly pmaStatus: Uint16Array;
  readonly mlnxUnsupported: Uint8Array;

  constructor(size: number) {
    this.capsKnown = new Uint8Array(size);
    this.capMask = new Uint32Array(size);
    this.capMask2 = new Uint16Array(size);
    this.capsFailure = new Uint8Array(size);
    this.capsStatus = new Uint16Array(size);
    this.pmaKnown = new Uint8Array(size);
    this.pmaCapMask = new Uint16Array(size);
    this.pmaCapMask2 = new Uint32Array(size);
    this.samplesUnsupported = new Uint8Array(size);
    this.pmaFailure = new Uint8Array(size);
    this.pmaStatus = new Uint16Array(size);
    this.mlnxUnsupported = new Uint8Array(size);
  }

  beginSweep(): void {
    this.capsFailure.fill(0);
    this.pmaFailure.fill(0);
  }

  /** Whether the PMA of distinct LID l has 64-bit error counters and XmitWait in PortCountersExtended. */
  additionalCounters(l: number): boolean {
    return (
      this.pmaKnown[l] === 1 &&
      ((this.pmaCapMask2[l] as number) & PMA_CAP2_ADDITIONAL_PORT_COUNTERS_EXTENDED) !== 0
    );
  }

  /** Writes each port's LID knowledge into its record; returns the targets with a failure. */
  stamp(records: Buffer, lidOfTarget: Int32Array, ports: PortKnowledge): number {
    let failures = 0;
    for (let i = 0; i < lidOfTarget.length; i++) {
      const base = i * RECORD_SIZE;
      const l = lidOfTarget[i] as number;
      if (this.capsKnown[l]) {
        records[base + OFF.flags] = (records[base + OFF.flags] as number) | HAS_CAPABILITIES;
        records.writeUInt32BE(this.capMask[l] as number, base + OFF.capabilityMask);
        records.writeUInt16BE(this.capMask2[l] as number, base + OFF.capabilityMask2);
      } else if (this.capsFailure[l]) {
        setFailure(records, base, 3, this.capsFailure[l] as number, this.capsStatus[l] as number);
      }
      ports.stamp(records, i);
      let flags = records[base + OFF.flags] as number;
      if (this.pmaKnown[l]) {
        // 64-bit errors and XmitWait where the PMA has them and PortCountersExtended answered; else the narrow ones.
        if (this.additionalCounters(l) && flags & HAS_PORT_COUNTERS_EXTENDED) flags |= HAS_EXTENDED_ERRORS;
        const wait = flags & (HAS_EXTENDED_ERRORS | HAS_PORT_COUNTERS);
        if (wait && (this.pmaCapMask[l] as number) & PMA_CAP_XMIT_WAIT) flags |= HAS_XMIT_WAIT;
        records[base + OFF.flags] = flags;
      } else if (this.pmaFailure[l]) {
        setFailure(records, base, 4, this.pmaFailure[l] as number, this.pmaStatus[l] as number);
      }
      if (records.readUInt16BE(base + OFF.failures) !== 0) failures++;
    }
    return failures;
  }
}

/** What is known of each target port across sweeps: its PortSamplesControl and its last PortInfo. */
export class PortKnowledge {
  readonly info: PortInfoCache;
  readonly samplesKnown: Uint8Array;
  readonly samplesTick: Uint8Array;
  readonly samplesCounterWidth: Uint8Array;

  constructor(size: number) {
    this.info = new PortInfoCache(size);
    this.samplesKnown = new Uint8Array(size);
    this.samplesTick = new Uint8Array(size);
    this.samplesCounterWidth = new Uint8Array(size);
  }

  stamp(records: Buffer, i: number): void {
    if (!this.samplesKnown[i]) return;
    const base = i * RECORD_SIZE;
    records[base + OFF.flags] = (records[base + OFF.flags] as number) | HAS_SAMPLES_CONTROL;
    records[base + OFF.samplesTick] = this.samplesTick[i] as number;
    records[base + OFF.samplesCounterWidth] = this.samplesCounterWidth[i] as number;
  }
}
