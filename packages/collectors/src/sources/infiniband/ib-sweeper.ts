import {
  ATTR_CLASS_PORT_INFO,
  ATTR_MLNX_EXT_PORT_INFO,
  ATTR_PORT_COUNTERS,
  ATTR_PORT_COUNTERS_EXTENDED,
  ATTR_PORT_INFO,
  copyPortCountersErrors,
  decodePmaCapabilityMask,
  decodePortInfo,
  encodePmaGet,
  encodeSmpGet,
  GSI_QKEY,
  GSI_QP,
  MAD_DATA_OFFSET,
  MAD_SIZE,
  METHOD_GET_RESP,
  MGMT_CLASS_PERF,
  MGMT_CLASS_SUBN_LID_ROUTED,
  PHYS_STATE_LINK_UP,
  PMA_CAP_XMIT_WAIT,
  portXmitWait,
  SMI_QP,
} from './ib-mad.ts';
import {
  type AttributeIndex,
  FAILED_BAD_ANSWER,
  FAILED_NO_ANSWER,
  FAILED_STATUS,
  HAS_CAPABILITIES,
  HAS_PORT_COUNTERS,
  HAS_PORT_COUNTERS_EXTENDED,
  HAS_PORT_INFO,
  HAS_XMIT_WAIT,
  OFF,
  RECORD_SIZE,
  setFailure,
} from './ib-port-record.ts';
import type { UmadPort } from './ib-umad.ts';

export interface SweepSettings {
  /** MADs in flight at once. */
  outstanding: number;
  /** How long to wait for each answer. */
  timeoutMs: number;
  /** Sends after the first before an attribute of a port counts as failed. */
  retries: number;
}

export interface SweepOutcome {
  /** RECORD_SIZE bytes per target, in target order (ib-port-record.ts). */
  records: Buffer;
  /** Wall-clock midpoint of the sweep. */
  readAtMs: number;
  durationSeconds: number;
  madsSent: number;
  retries: number;
  /** Targets with at least one attribute not read. */
  failures: number;
}

/**
 * What a MAD asks, in a job code `index << 3 | kind`: index is the target's, or for the
 * CAPABILITIES and CLASS_PORT_INFO probes (once per LID, until answered) the distinct LID's.
 */
const KIND_EXTENDED = 0;
const KIND_COUNTERS = 1;
const KIND_PORT_INFO = 2;
/** PortInfo of port 0 of a LID: a switch's capability masks live there, a CA port's in its own. */
const KIND_CAPABILITIES = 3;
/** Mellanox ExtendedPortInfo of a QDR link: FDR10 or not. Never retried. */
const KIND_MLNX = 4;
/** The PMA's ClassPortInfo of a LID: whether PortXmitWait counts. */
const KIND_CLASS_PORT_INFO = 5;

const ATTRIBUTE_OF_KIND: readonly AttributeIndex[] = [2, 1, 0];
const MAX_WINDOW = 1024;
const SLOT_BITS = 10;
const STATUS_BUSY = 0x0001;
const STATUS_FAILED = 0x001e;

/**
 * Reads PortInfo, PortCounters and PortCountersExtended of every target port with a window of
 * MADs in flight, matched to their answers by transaction id; a MAD not answered in time (or given
 * back by the kernel or ibsim with a non-zero status) is sent again up to `retries` times, then the
 * attribute counts as failed for that port. Once per LID (until answered) it also asks the SMA for
 * its port 0 PortInfo (the capability masks that say which speed fields count) and the PMA for
 * its ClassPortInfo (whether PortXmitWait counts). Synchronous: it runs in the reader's child.
 */
export class IbSweeper {
  readonly #port: UmadPort;
  readonly #perfAgent: number;
  readonly #smpAgent: number;
  readonly #send: Buffer;
  readonly #recv: Buffer;
  #lids: Uint16Array = new Uint16Array(0);
  #ports: Uint8Array = new Uint8Array(0);
  /** Distinct LIDs of the targets, each target's index in it, and what is known of each. */
  #lidList = new Uint16Array(0);
  #lidOfTarget = new Int32Array(0);
  /** The targets in the order their MADs go out: one port of each LID in turn. */
  #order = new Int32Array(0);
  #capsKnown = new Uint8Array(0);
  #capMask = new Uint32Array(0);
  #capMask2 = new Uint16Array(0);
  /** How each LID's capability probe failed in the sweep under way (0: it did not). */
  #capsFailure = new Uint8Array(0);
  #capsStatus = new Uint16Array(0);
  /** The PMA capability mask of each LID (ClassPortInfo), and how its probe failed. */
  #pmaKnown = new Uint8Array(0);
  #pmaCapMask = new Uint16Array(0);
  #pmaFailure = new Uint8Array(0);
  #pmaStatus = new Uint16Array(0);
  #mlnxUnsupported = new Uint8Array(0);

  constructor(port: UmadPort) {
    this.#port = port;
    this.#perfAgent = port.register(MGMT_CLASS_PERF);
    this.#smpAgent = port.register(MGMT_CLASS_SUBN_LID_ROUTED);
    this.#send = Buffer.alloc(port.headerSize + MAD_SIZE);
    this.#recv = Buffer.alloc(port.headerSize + MAD_SIZE);
  }

  /** The ports to read from now on (switch: its LID and the port; CA: the port's LID and number). */
  setTargets(lids: Uint16Array, ports: Uint8Array): void {
    if (lids.length !== ports.length) throw new RangeError('one port number per LID');
    this.#lids = lids;
    this.#ports = ports;
    const index = new Map<number, number>();
    this.#lidOfTarget = new Int32Array(lids.length);
    for (let i = 0; i < lids.length; i++) {
      const lid = lids[i] as number;
      let l = index.get(lid);
      if (l === undefined) {
        l = index.size;
        index.set(lid, l);
      }
      this.#lidOfTarget[i] = l;
    }
    this.#lidList = Uint16Array.from(index.keys());
    // Round-robin over the LIDs: a window of MADs is spread over as many switches as it can be,
    // rather than queueing 48 ports' worth at one switch's management agent.
    const byLid: number[][] = Array.from({ length: index.size }, () => []);
    for (let i = 0; i < lids.length; i++) byLid[this.#lidOfTarget[i] as number]?.push(i);
    this.#order = new Int32Array(lids.length);
    let k = 0;
    for (let round = 0; k < lids.length; round++) {
      for (const list of byLid) if (round < list.length) this.#order[k++] = list[round] as number;
    }
    this.#capsKnown = new Uint8Array(index.size);
    this.#capMask = new Uint32Array(index.size);
    this.#capMask2 = new Uint16Array(index.size);
    this.#capsFailure = new Uint8Array(index.size);
    this.#capsStatus = new Uint16Array(index.size);
    this.#pmaKnown = new Uint8Array(index.size);
    this.#pmaCapMask = new Uint16Array(index.size);
    this.#pmaFailure = new Uint8Array(index.size);
    this.#pmaStatus = new Uint16Array(index.size);
    this.#mlnxUnsupported = new Uint8Array(index.size);
  }

  sweep(settings: SweepSettings): SweepOutcome {
    const startedAt = Date.now();
    const started = performance.now();
    const n = this.#lids.length;
    const lids = this.#lids;
    const ports = this.#ports;
    const records = Buffer.alloc(n * RECORD_SIZE);
    const header = this.#port.headerSize;
    const sendMad = this.#send.subarray(header);
    const recvMad = this.#recv.subarray(header);
    const timeoutMs = Math.max(1, settings.timeoutMs);
    const maxTries = Math.max(0, settings.retries) + 1;
    const window = Math.max(1, Math.min(MAX_WINDOW, settings.outstanding));

    // Jobs: the capability probes (SMA and PMA) of LIDs not yet known, then each port's three
    // attributes (the extended counters first: a CA port's own answers then do not count in
    // them), then whatever FDR10 checks the PortInfo answers call for.
    const queue = new Int32Array(2 * this.#lidList.length + 4 * n);
    this.#capsFailure.fill(0);
    this.#pmaFailure.fill(0);
    let head = 0;
    let tail = 0;
    for (let l = 0; l < this.#lidList.length; l++) {
      if (!this.#capsKnown[l]) queue[tail++] = (l << 3) | KIND_CAPABILITIES;
      if (!this.#pmaKnown[l]) queue[tail++] = (l << 3) | KIND_CLASS_PORT_INFO;
    }
    for (let k = 0; k < n; k++) {
      const i = this.#order[k] as number;
      queue[tail++] = (i << 3) | KIND_EXTENDED;
      queue[tail++] = (i << 3) | KIND_COUNTERS;
      queue[tail++] = (i << 3) | KIND_PORT_INFO;
    }

    const slotJob = new Int32Array(window).fill(-1);
    const slotTid = new Uint32Array(window);
    const slotDeadline = new Float64Array(window);
    const slotTries = new Uint8Array(window);
    const free: number[] = [];
    for (let s = window - 1; s >= 0; s--) free.push(s);
    let inFlight = 0;
    let sequence = 0;
    let madsSent = 0;
    let retries = 0;
    // The earliest deadline of a MAD in flight, or earlier (a scan finds the true one).
    let nextDeadline = Number.POSITIVE_INFINITY;

    const send = (slot: number, job: number, tries: number): void => {
      const kind = job & 7;
      const index = job >> 3;
      sequence = (sequence + 1) & 0x3fffff;
      const tid = ((sequence << SLOT_BITS) | slot) >>> 0;
      let lid: number;
      let sent: boolean;
      if (kind === KIND_CLASS_PORT_INFO) {
        lid = this.#lidList[index] as number;
        encodePmaGet(sendMad, tid, ATTR_CLASS_PORT_INFO, 0);
        sent = this.#port.send(this.#perfAgent, this.#send, lid, GSI_QP, GSI_QKEY, timeoutMs);
      } else if (kind === KIND_EXTENDED || kind === KIND_COUNTERS) {
        lid = lids[index] as number;
        encodePmaGet(
          sendMad,
          tid,
          kind === KIND_EXTENDED ? ATTR_PORT_COUNTERS_EXTENDED : ATTR_PORT_COUNTERS,
          ports[index] as number,
        );
        sent = this.#port.send(this.#perfAgent, this.#send, lid, GSI_QP, GSI_QKEY, timeoutMs);
      } else {
        const capabilities = kind === KIND_CAPABILITIES;
        lid = (capabilities ? this.#lidList[index] : lids[index]) as number;
        encodeSmpGet(
          sendMad,
          tid,
          kind === KIND_MLNX ? ATTR_MLNX_EXT_PORT_INFO : ATTR_PORT_INFO,
          capabilities ? 0 : (ports[index] as number),
        );
        sent = this.#port.send(this.#smpAgent, this.#send, lid, SMI_QP, 0, timeoutMs);
      }
      slotJob[slot] = job;
      slotTid[slot] = tid;
      // A send that failed counts as a try that timed out at once.
      const deadline = sent ? performance.now() + timeoutMs : 0;
      slotDeadline[slot] = deadline;
      if (deadline < nextDeadline) nextDeadline = deadline;
      slotTries[slot] = tries;
      madsSent++;
    };

    const release = (slot: number): void => {
      slotJob[slot] = -1;
      free.push(slot);
      inFlight--;
    };

    const fail = (slot: number, failure: number, status: number): void => {
      const job = slotJob[slot] as number;
      const kind = job & 7;
      const index = job >> 3;
      if (kind <= KIND_PORT_INFO) {
        setFailure(records, index * RECORD_SIZE, ATTRIBUTE_OF_KIND[kind] as AttributeIndex, failure, status);
      } else if (kind === KIND_CAPABILITIES) {
        this.#capsFailure[index] = failure;
        this.#capsStatus[index] = status;
      } else if (kind === KIND_CLASS_PORT_INFO) {
        this.#pmaFailure[index] = failure;
        this.#pmaStatus[index] = status;
      } else {
        this.#mlnxUnsupported[this.#lidOfTarget[index] as number] = 1;
      }
      release(slot);
    };

    const again = (slot: number, failure: number, status: number): void => {
      const job = slotJob[slot] as number;
      const tries = slotTries[slot] as number;
      if ((job & 7) === KIND_MLNX || tries >= maxTries) {
        fail(slot, failure, status);
        return;
      }
      retries++;
      send(slot, job, tries + 1);
    };

    const answer = (slot: number): void => {
      const job = slotJob[slot] as number;
      const kind = job & 7;
      const index = job >> 3;
      const base = index * RECORD_SIZE;
      const data = MAD_DATA_OFFSET;
      const pma = kind === KIND_EXTENDED || kind === KIND_COUNTERS || kind === KIND_CLASS_PORT_INFO;
      const attribute =
        kind === KIND_CLASS_PORT_INFO
          ? ATTR_CLASS_PORT_INFO
          : kind === KIND_EXTENDED
            ? ATTR_PORT_COUNTERS_EXTENDED
            : kind === KIND_COUNTERS
              ? ATTR_PORT_COUNTERS
              : kind === KIND_MLNX
                ? ATTR_MLNX_EXT_PORT_INFO
                : ATTR_PORT_INFO;
      const status = recvMad.readUInt16BE(4);
      if (status & STATUS_BUSY) {
        again(slot, FAILED_STATUS, status);
        return;
      }
      if (status & STATUS_FAILED) {
        fail(slot, FAILED_STATUS, status);
        return;
      }
      if (
        recvMad[3] !== METHOD_GET_RESP ||
        recvMad[1] !== (pma ? MGMT_CLASS_PERF : MGMT_CLASS_SUBN_LID_ROUTED) ||
        recvMad.readUInt16BE(16) !== attribute ||
        (pma && kind !== KIND_CLASS_PORT_INFO && recvMad[data + 1] !== ports[index])
      ) {
        fail(slot, FAILED_BAD_ANSWER, 0);
        return;
      }
      switch (kind) {
        case KIND_EXTENDED:
          // PortXmitData, PortRcvData, PortXmitPkts, PortRcvPkts: 32 bytes as they came.
          recvMad.copy(records, base + OFF.transmitData, data + 8, data + 40);
          records[base + OFF.flags] = (records[base + OFF.flags] as number) | HAS_PORT_COUNTERS_EXTENDED;
          break;
        case KIND_COUNTERS:
          records.writeUInt32BE(portXmitWait(recvMad), base + OFF.transmitWait);
          copyPortCountersErrors(recvMad, records, base + OFF.errors);
          records[base + OFF.flags] = (records[base + OFF.flags] as number) | HAS_PORT_COUNTERS;
          break;
        case KIND_PORT_INFO: {
          const p = decodePortInfo(recvMad);
          records[base + OFF.portState] = p.portState;
          records[base + OFF.physicalState] = p.physicalState;
          records[base + OFF.linkWidthActive] = p.linkWidthActive;
          records[base + OFF.linkSpeedActive] = p.linkSpeedActive;
          records[base + OFF.linkSpeedExtActive] = p.linkSpeedExtActive;
          records[base + OFF.linkSpeedExtActive2] = p.linkSpeedExtActive2;
          records[base + OFF.flags] = (records[base + OFF.flags] as number) | HAS_PORT_INFO;
          if (
            p.linkSpeedActive === 4 &&
            p.linkSpeedExtActive === 0 &&
            p.linkSpeedExtActive2 === 0 &&
            p.physicalState === PHYS_STATE_LINK_UP &&
            !this.#mlnxUnsupported[this.#lidOfTarget[index] as number]
          ) {
            queue[tail++] = (index << 3) | KIND_MLNX;
          }
          break;
        }
        case KIND_CAPABILITIES: {
          const p = decodePortInfo(recvMad);
          this.#capMask[index] = p.capabilityMask;
          this.#capMask2[index] = p.capabilityMask2;
          this.#capsKnown[index] = 1;
          break;
        }
        case KIND_MLNX:
          records[base + OFF.mlnxLinkSpeedActive] = recvMad[data + 15] as number;
          break;
        case KIND_CLASS_PORT_INFO:
          this.#pmaCapMask[index] = decodePmaCapabilityMask(recvMad);
          this.#pmaKnown[index] = 1;
          break;
      }
      release(slot);
    };

    const receive = (): void => {
      const tid = recvMad.readUInt32BE(12);
      const slot = tid & (MAX_WINDOW - 1);
      // Anything else is the late answer to a MAD already sent again: dropped.
      if (slot < window && slotJob[slot] !== -1 && slotTid[slot] === tid) {
        if (this.#recv.readUInt32LE(4) !== 0) again(slot, FAILED_NO_ANSWER, 0);
        else answer(slot);
      }
    };

    for (;;) {
      while (inFlight < window && head < tail) {
        inFlight++;
        const slot = free.pop() as number;
        send(slot, queue[head++] as number, 1);
      }
      if (inFlight === 0) break;
      // An answer already there is taken without waiting (the umad fd is non-blocking); only
      // when none is does the loop sleep until one comes or the first deadline passes.
      if (this.#port.recv(this.#recv, 0) >= 0) {
        receive();
      } else {
        const waitMs = Math.max(1, Math.ceil(nextDeadline - performance.now()));
        if (this.#port.recv(this.#recv, waitMs) >= 0) receive();
      }
      const now = performance.now();
      if (now >= nextDeadline) {
        nextDeadline = Number.POSITIVE_INFINITY;
        for (let s = 0; s < window; s++) {
          if (slotJob[s] !== -1 && (slotDeadline[s] as number) <= now) again(s, FAILED_NO_ANSWER, 0);
          if (slotJob[s] !== -1 && (slotDeadline[s] as number) < nextDeadline)
            nextDeadline = slotDeadline[s] as number;
        }
      }
    }

    let failures = 0;
    for (let i = 0; i < n; i++) {
      const base = i * RECORD_SIZE;
      const l = this.#lidOfTarget[i] as number;
      if (this.#capsKnown[l]) {
        records[base + OFF.flags] = (records[base + OFF.flags] as number) | HAS_CAPABILITIES;
        records.writeUInt32BE(this.#capMask[l] as number, base + OFF.capabilityMask);
        records.writeUInt16BE(this.#capMask2[l] as number, base + OFF.capabilityMask2);
      } else if (this.#capsFailure[l]) {
        setFailure(records, base, 3, this.#capsFailure[l] as number, this.#capsStatus[l] as number);
      }
      const flags = records[base + OFF.flags] as number;
      if (this.#pmaKnown[l]) {
        if (flags & HAS_PORT_COUNTERS && (this.#pmaCapMask[l] as number) & PMA_CAP_XMIT_WAIT) {
          records[base + OFF.flags] = flags | HAS_XMIT_WAIT;
        }
      } else if (this.#pmaFailure[l]) {
        setFailure(records, base, 4, this.#pmaFailure[l] as number, this.#pmaStatus[l] as number);
      }
      if (records.readUInt16BE(base + OFF.failures) !== 0) failures++;
    }
    const durationMs = performance.now() - started;
    return {
      records,
      readAtMs: startedAt + durationMs / 2,
      durationSeconds: durationMs / 1000,
      madsSent,
      retries,
      failures,
    };
  }

  close(): void {
    this.#port.close();
  }
}
