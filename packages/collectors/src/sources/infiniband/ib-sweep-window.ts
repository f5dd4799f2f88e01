import {
  encodePmaGet,
  encodePortCountersClear,
  encodeSmpGet,
  GSI_QKEY,
  GSI_QP,
  MAD_DATA_OFFSET,
  MAD_SIZE,
  METHOD_GET_RESP,
  MGMT_CLASS_PERF,
  MGMT_CLASS_SUBN_LID_ROUTED,
  SMI_QP,
} from './ib-mad.ts';
import {
  type AttributeIndex,
  CLEARED_XMIT_WAIT,
  FAILED_BAD_ANSWER,
  FAILED_NO_ANSWER,
  FAILED_STATUS,
  OFF,
  RECORD_SIZE,
  setFailure,
} from './ib-port-record.ts';
import {
  ATTRIBUTE_ID_OF_KIND,
  ATTRIBUTE_OF_KIND,
  KIND_CAPABILITIES,
  KIND_CLASS_PORT_INFO,
  KIND_COUNTERS,
  KIND_EXTENDED,
  KIND_MLNX,
  KIND_PORT_INFO,
  KIND_RESET,
  KIND_SAMPLES_CONTROL,
  nearSaturation,
  storeAnswer,
} from './ib-sweep-jobs.ts';
import type { LidKnowledge, PortKnowledge, SweepTargets } from './ib-sweep-targets.ts';
import type { UmadPort } from './ib-umad.ts';

export interface SweepSettings {
  /** MADs in flight at once. */
  outstanding: number;
  /** How long to wait for each answer. */
  timeoutMs: number;
  /** Sends after the first before an attribute of a port counts as failed. */
  retries: number;
  /**
   * Clear a port's narrow PortCounters (errors, XmitWait) that reached half their maximum, right after
   * reading them, as OpenSM's PerfMgr does; off by default, as other tools read the same counters.
   */
  resetCounters?: boolean;
  /**
   * An Active, LinkUp port whose LinkDowned and LinkErrorRecovery counters did not move has its PortInfo
   * read every this many sweeps (staggered by port); 1 reads it every sweep (PortInfoCache).
   */
  portInfoEvery?: number;
}

/** A sweep's clocks: a monotonic one (ms) for timeouts and round trips, and its offset to Unix ms for stamps. */
export interface SweepClock {
  now(): number;
  /** Unix ms minus `now()`, taken once per sweep. */
  epochOffsetMs: number;
}

/** performance.now(), and its offset to Date.now() as of now. */
export function systemSweepClock(): SweepClock {
  return { now: () => performance.now(), epochOffsetMs: Date.now() - performance.now() };
}

/** The umad port a sweep sends on, its two agents and its send and receive buffers. */
export interface MadChannel {
  port: UmadPort;
  perfAgent: number;
  smpAgent: number;
  send: Buffer;
  recv: Buffer;
}

const MAX_WINDOW = 1024;
const SLOT_BITS = 10;
const STATUS_BUSY = 0x0001;
const STATUS_FAILED = 0x001e;

/**
 * One sweep's MADs in flight, matched to answers by transaction id (slot in its low bits). A MAD unanswered in time or
 * answered busy is resent up to `retries` times, then the attribute counts as failed for that port.
 */
export class SweepWindow {
  readonly records: Buffer;
  madsSent = 0;
  retries = 0;
  /** MADs sent by job kind (KIND_*), retries included. */
  readonly madsByKind = new Uint32Array(8);
  private readonly sendMad: Buffer;
  private readonly recvMad: Buffer;
  private readonly timeoutMs: number;
  private readonly maxTries: number;
  private readonly window: number;
  private readonly queue: Int32Array;
  private head = 0;
  private tail = 0;
  private readonly slotJob: Int32Array;
  private readonly slotTid: Uint32Array;
  private readonly slotDeadline: Float64Array;
  private readonly slotTries: Uint8Array;
  /** When the slot's MAD was last sent (the clock's ms): its answer's counters were read after it. */
  private readonly slotSent: Float64Array;
  private readonly free: number[] = [];
  private inFlight = 0;
  private sequence = 0;
  /** The earliest deadline of a MAD in flight, or earlier (a scan finds the true one). */
  private nextDeadline = Number.POSITIVE_INFINITY;

  constructor(
    private readonly channel: MadChannel,
    private readonly targets: SweepTargets,
    private readonly known: LidKnowledge,
    private readonly portsKnown: PortKnowledge,
    private readonly settings: SweepSettings,
    private readonly clock: SweepClock = systemSweepClock(),
  ) {
    const n = targets.lids.length;
    this.records = Buffer.alloc(n * RECORD_SIZE);
    this.sendMad = channel.send.subarray(channel.port.headerSize);
    this.recvMad = channel.recv.subarray(channel.port.headerSize);
    this.timeoutMs = Math.max(1, settings.timeoutMs);
    this.maxTries = Math.max(0, settings.retries) + 1;
    this.window = Math.max(1, Math.min(MAX_WINDOW, settings.outstanding));
    // Per LID two probes; per target its three attributes, and PortSamplesControl, FDR10 and a reset as called for.
    this.queue = new Int32Array(2 * targets.lidList.length + 6 * n);
    this.slotJob = new Int32Array(this.window).fill(-1);
    this.slotTid = new Uint32Array(this.window);
    this.slotDeadline = new Float64Array(this.window);
    this.slotTries = new Uint8Array(this.window);
    this.slotSent = new Float64Array(this.window);
    for (let s = this.window - 1; s >= 0; s--) this.free.push(s);
    this.enqueueJobs();
  }

  /**
   * Capability probes of unknown LIDs, then each port's three attributes, extended counters first (a CA port's own
   * answers then do not count in them); FDR10 checks are added as PortInfo answers call for them.
   */
  private enqueueJobs(): void {
    const { lidList, lidOfTarget, order } = this.targets;
    for (let l = 0; l < lidList.length; l++) {
      if (!this.known.capsKnown[l]) this.queue[this.tail++] = (l << 3) | KIND_CAPABILITIES;
      if (!this.known.pmaKnown[l]) this.queue[this.tail++] = (l << 3) | KIND_CLASS_PORT_INFO;
      this.enqueueSamplesControl(l);
    }
    for (let k = 0; k < order.length; k++) {
      const i = order[k] as number;
      this.queue[this.tail++] = (i << 3) | KIND_EXTENDED;
      // Its errors and XmitWait are PortCountersExtended's where the PMA is known to have them.
      if (!this.known.additionalCounters(lidOfTarget[i] as number))
        this.queue[this.tail++] = (i << 3) | KIND_COUNTERS;
      if (this.portsKnown.info.due(i)) this.queue[this.tail++] = (i << 3) | KIND_PORT_INFO;
    }
  }

  /**
   * PortSamplesControl of a switch LID's ports not yet known: its first port alone until that one answers
   * (a PMA without it, as ibsim's, costs one MAD), then the others. Once per port while the targets stay.
   * Switches only: their ports' XmitWait judges congestion, and ibsim hands a CA's unanswered PMA Get to
   * the clients attached there (OpenSM among them).
   */
  private enqueueSamplesControl(l: number, afterFirst = false): void {
    const { lidStart, lidTargets, switches } = this.targets;
    const first = lidTargets[lidStart[l] as number] as number;
    if (this.known.samplesUnsupported[l] || !switches[first]) return;
    if (!afterFirst && !this.portsKnown.samplesKnown[first]) {
      this.queue[this.tail++] = (first << 3) | KIND_SAMPLES_CONTROL;
      return;
    }
    for (let t = (lidStart[l] as number) + 1; t < (lidStart[l + 1] as number); t++) {
      const i = lidTargets[t] as number;
      if (!this.portsKnown.samplesKnown[i]) this.queue[this.tail++] = (i << 3) | KIND_SAMPLES_CONTROL;
    }
  }

  /** Sends every job and waits for every answer or its last timeout. */
  run(): void {
    const { port, recv } = this.channel;
    for (;;) {
      while (this.inFlight < this.window && this.head < this.tail) {
        this.inFlight++;
        this.send(this.free.pop() as number, this.queue[this.head++] as number, 1);
      }
      if (this.inFlight === 0) return;
      // One call: an answer already there returns at once, without a non-blocking try before it.
      const waitMs = Math.max(1, Math.ceil(this.nextDeadline - this.clock.now()));
      if (port.recv(recv, waitMs) >= 0) this.receive();
      const now = this.clock.now();
      if (now >= this.nextDeadline) this.expire(now);
    }
  }

  private expire(now: number): void {
    const { slotJob, slotDeadline } = this;
    this.nextDeadline = Number.POSITIVE_INFINITY;
    for (let s = 0; s < this.window; s++) {
      if (slotJob[s] !== -1 && (slotDeadline[s] as number) <= now) this.again(s, FAILED_NO_ANSWER, 0);
      if (slotJob[s] !== -1 && (slotDeadline[s] as number) < this.nextDeadline)
        this.nextDeadline = slotDeadline[s] as number;
    }
  }

  private send(slot: number, job: number, tries: number): void {
    const kind = job & 7;
    const index = job >> 3;
    const { port, perfAgent, smpAgent, send } = this.channel;
    const { lids, ports, lidList } = this.targets;
    this.sequence = (this.sequence + 1) & 0x3fffff;
    const tid = ((this.sequence << SLOT_BITS) | slot) >>> 0;
    const attribute = ATTRIBUTE_ID_OF_KIND[kind] as number;
    let sent: boolean;
    if (kind === KIND_CLASS_PORT_INFO) {
      encodePmaGet(this.sendMad, tid, attribute, 0);
      sent = port.send(perfAgent, send, lidList[index] as number, GSI_QP, GSI_QKEY, this.timeoutMs);
    } else if (kind === KIND_RESET) {
      const mask = this.records.readUInt16BE(index * RECORD_SIZE + OFF.resetAsked);
      const clearWait = (mask & CLEARED_XMIT_WAIT) !== 0;
      encodePortCountersClear(this.sendMad, tid, attribute, ports[index] as number, mask & 0x0fff, clearWait);
      sent = port.send(perfAgent, send, lids[index] as number, GSI_QP, GSI_QKEY, this.timeoutMs);
    } else if (kind === KIND_EXTENDED || kind === KIND_COUNTERS || kind === KIND_SAMPLES_CONTROL) {
      encodePmaGet(this.sendMad, tid, attribute, ports[index] as number);
      sent = port.send(perfAgent, send, lids[index] as number, GSI_QP, GSI_QKEY, this.timeoutMs);
    } else {
      const capabilities = kind === KIND_CAPABILITIES;
      const lid = (capabilities ? lidList[index] : lids[index]) as number;
      encodeSmpGet(this.sendMad, tid, attribute, capabilities ? 0 : (ports[index] as number));
      sent = port.send(smpAgent, send, lid, SMI_QP, 0, this.timeoutMs);
    }
    this.slotJob[slot] = job;
    this.slotTid[slot] = tid;
    // A send that failed counts as a try that timed out at once.
    const sentAt = this.clock.now();
    this.slotSent[slot] = sentAt;
    const deadline = sent ? sentAt + this.timeoutMs : 0;
    this.slotDeadline[slot] = deadline;
    if (deadline < this.nextDeadline) this.nextDeadline = deadline;
    this.slotTries[slot] = tries;
    this.madsSent++;
    this.madsByKind[kind] = (this.madsByKind[kind] as number) + 1;
  }

  private release(slot: number): void {
    this.slotJob[slot] = -1;
    this.free.push(slot);
    this.inFlight--;
  }

  private fail(slot: number, failure: number, status: number): void {
    const job = this.slotJob[slot] as number;
    const kind = job & 7;
    const index = job >> 3;
    if (kind <= KIND_PORT_INFO) {
      setFailure(
        this.records,
        index * RECORD_SIZE,
        ATTRIBUTE_OF_KIND[kind] as AttributeIndex,
        failure,
        status,
      );
    } else if (kind === KIND_CAPABILITIES) {
      this.known.capsFailure[index] = failure;
      this.known.capsStatus[index] = status;
    } else if (kind === KIND_CLASS_PORT_INFO) {
      this.known.pmaFailure[index] = failure;
      this.known.pmaStatus[index] = status;
    } else if (kind === KIND_SAMPLES_CONTROL) {
      // Its Tick stays unknown and is taken as 0, as before it was read; the port's other reads are whole.
      this.known.samplesUnsupported[this.targets.lidOfTarget[index] as number] = 1;
    } else if (kind === KIND_RESET) {
      // Not known to have cleared: a reading lower than this one is a reset the rates leave as a gap.
    } else {
      this.known.mlnxUnsupported[this.targets.lidOfTarget[index] as number] = 1;
    }
    this.release(slot);
  }

  private again(slot: number, failure: number, status: number): void {
    const job = this.slotJob[slot] as number;
    const tries = this.slotTries[slot] as number;
    const kind = job & 7;
    if (
      kind === KIND_MLNX ||
      kind === KIND_SAMPLES_CONTROL ||
      kind === KIND_RESET ||
      tries >= this.maxTries
    ) {
      this.fail(slot, failure, status);
      return;
    }
    this.retries++;
    this.send(slot, job, tries + 1);
  }

  private receive(): void {
    const tid = this.recvMad.readUInt32BE(12);
    const slot = tid & (MAX_WINDOW - 1);
    // Anything else is the late answer to a MAD already sent again: dropped.
    if (slot < this.window && this.slotJob[slot] !== -1 && this.slotTid[slot] === tid) {
      if (this.channel.recv.readUInt32LE(4) !== 0) this.again(slot, FAILED_NO_ANSWER, 0);
      else this.answer(slot);
    }
  }

  private answer(slot: number): void {
    const job = this.slotJob[slot] as number;
    const kind = job & 7;
    const index = job >> 3;
    const mad = this.recvMad;
    const pma = kind !== KIND_PORT_INFO && kind !== KIND_CAPABILITIES && kind !== KIND_MLNX;
    const status = mad.readUInt16BE(4);
    if (status & STATUS_BUSY) {
      this.again(slot, FAILED_STATUS, status);
      return;
    }
    if (status & STATUS_FAILED) {
      this.fail(slot, FAILED_STATUS, status);
      return;
    }
    if (
      mad[3] !== METHOD_GET_RESP ||
      mad[1] !== (pma ? MGMT_CLASS_PERF : MGMT_CLASS_SUBN_LID_ROUTED) ||
      mad.readUInt16BE(16) !== ATTRIBUTE_ID_OF_KIND[kind] ||
      (pma && kind !== KIND_CLASS_PORT_INFO && mad[MAD_DATA_OFFSET + 1] !== this.targets.ports[index])
    ) {
      this.fail(slot, FAILED_BAD_ANSWER, 0);
      return;
    }
    if (kind === KIND_EXTENDED || kind === KIND_COUNTERS) this.stampCounters(slot, index);
    if (storeAnswer(this.recvMad, kind, index, this.records, this.known, this.portsKnown)) {
      // A QDR link up may be FDR10: ask the Mellanox extension, unless its LID refused it before.
      if (!this.known.mlnxUnsupported[this.targets.lidOfTarget[index] as number]) {
        this.queue[this.tail++] = (index << 3) | KIND_MLNX;
      }
    }
    this.follow(kind, index);
    this.release(slot);
  }

  /**
   * The port's counters were read between the MAD's send and its answer: stamped with the middle of that
   * round trip, by PortCountersExtended's answer (the data), else PortCounters'.
   */
  private stampCounters(slot: number, index: number): void {
    const at = index * RECORD_SIZE + OFF.countersReadAtMs;
    const kind = (this.slotJob[slot] as number) & 7;
    if (kind === KIND_COUNTERS && this.records.readDoubleBE(at) !== 0) return;
    const sent = this.slotSent[slot] as number;
    this.records.writeDoubleBE(this.clock.epochOffsetMs + (sent + this.clock.now()) / 2, at);
  }

  /**
   * What an answer calls for: the other ports' PortSamplesControl, the PortInfo of a port whose link
   * counters moved, or a reset of counters near saturation.
   */
  private follow(kind: number, index: number): void {
    const l = this.targets.lidOfTarget[index] as number;
    const { lidStart, lidTargets } = this.targets;
    const wide = this.known.additionalCounters(l);
    const counters = wide ? kind === KIND_EXTENDED : kind === KIND_COUNTERS;
    if (counters && this.portsKnown.info.linkCountersMoved(this.records, index, wide)) {
      this.queue[this.tail++] = (index << 3) | KIND_PORT_INFO;
    }
    if (kind === KIND_SAMPLES_CONTROL && lidTargets[lidStart[l] as number] === index) {
      this.enqueueSamplesControl(l, true);
    } else if (kind === KIND_COUNTERS && this.settings.resetCounters && !this.known.additionalCounters(l)) {
      const mask = nearSaturation(this.records, index);
      if (mask === 0) return;
      this.records.writeUInt16BE(mask, index * RECORD_SIZE + OFF.resetAsked);
      this.queue[this.tail++] = (index << 3) | KIND_RESET;
    }
  }
}

/** A umad port opened for sweeps: its performance and subnet-management agents registered. */
export function madChannel(port: UmadPort): MadChannel {
  return {
    port,
    perfAgent: port.register(MGMT_CLASS_PERF),
    smpAgent: port.register(MGMT_CLASS_SUBN_LID_ROUTED),
    send: Buffer.alloc(port.headerSize + MAD_SIZE),
    recv: Buffer.alloc(port.headerSize + MAD_SIZE),
  };
}
