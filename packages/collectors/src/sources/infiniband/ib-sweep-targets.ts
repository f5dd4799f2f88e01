import { PMA_CAP_XMIT_WAIT } from './ib-port-info.ts';
import {
  HAS_CAPABILITIES,
  HAS_PORT_COUNTERS,
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
}

export function sweepTargets(lids: Uint16Array, ports: Uint8Array): SweepTargets {
  if (lids.length !== ports.length) throw new RangeError('one port number per LID');
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
  return { lids, ports, lidList: Uint16Array.from(index.keys()), lidOfTarget, order };
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
    this.pmaFailure = new Uint8Array(size);
    this.pmaStatus = new Uint16Array(size);
    this.mlnxUnsupported = new Uint8Array(size);
  }

  beginSweep(): void {
    this.capsFailure.fill(0);
    this.pmaFailure.fill(0);
  }

  /** Writes each port's LID knowledge into its record; returns the targets with a failure. */
  stamp(records: Buffer, lidOfTarget: Int32Array): number {
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
      const flags = records[base + OFF.flags] as number;
      if (this.pmaKnown[l]) {
        if (flags & HAS_PORT_COUNTERS && (this.pmaCapMask[l] as number) & PMA_CAP_XMIT_WAIT) {
          records[base + OFF.flags] = flags | HAS_XMIT_WAIT;
        }
      } else if (this.pmaFailure[l]) {
        setFailure(records, base, 4, this.pmaFailure[l] as number, this.pmaStatus[l] as number);
      }
      if (records.readUInt16BE(base + OFF.failures) !== 0) failures++;
    }
    return failures;
  }
}
