/**
 * InfiniBand MADs byte for byte, no I/O (IBA vol. 1: 13.4.2 MAD header, 14.2.5.6 PortInfo, 16.1.3.5, 16.1.4.11
 * PortCounters(Extended); libibmad `fields.c`). 256 bytes; perf-class MADs and LID-routed SMPs put attributes at 64.
 */

export const MAD_SIZE = 256;
export const MAD_DATA_OFFSET = 64;

export const MGMT_CLASS_SUBN_LID_ROUTED = 0x01;
export const MGMT_CLASS_PERF = 0x04;
const METHOD_GET = 0x01;
/** Set: a PMA answers it with GetResp, the attribute as it is after the set (a reset's counters from 0). */
export const METHOD_SET = 0x02;
export const METHOD_GET_RESP = 0x81;

export const ATTR_PORT_INFO = 0x0015;
/** The performance class's ClassPortInfo: its CapabilityMask says which counters the PMA has. */
export const ATTR_CLASS_PORT_INFO = 0x0001;
/** PortSamplesControl (IBA 16.1.3.2): its Tick scales PortXmitWait's tick. */
export const ATTR_PORT_SAMPLES_CONTROL = 0x0010;
export const ATTR_PORT_COUNTERS = 0x0012;
export const ATTR_PORT_COUNTERS_EXTENDED = 0x001d;
/** Mellanox's vendor SMP attribute ExtendedPortInfo: the only place FDR10 shows (libibmad mad.h). */
export const ATTR_MLNX_EXT_PORT_INFO = 0xff90;

/** QP and Q_Key of the general services interface (performance class); SMPs go to QP 0. */
export const GSI_QP = 1;
export const GSI_QKEY = 0x80010000;
export const SMI_QP = 0;

export interface MadHeader {
  mgmtClass: number;
  classVersion: number;
  /** With the response bit (0x80). */
  method: number;
  status: number;
  /** The low 32 bits: the kernel (or umad2sim) owns the high ones to find the sending agent. */
  transactionId: number;
  attributeId: number;
  attributeModifier: number;
}

export function writeMadHeader(mad: Buffer, h: MadHeader): void {
  mad.fill(0, 0, MAD_DATA_OFFSET);
  mad[0] = 1; // BaseVersion
  mad[1] = h.mgmtClass;
  mad[2] = h.classVersion;
  mad[3] = h.method;
  mad.writeUInt16BE(h.status, 4);
  mad.writeUInt32BE(h.transactionId >>> 0, 12);
  mad.writeUInt16BE(h.attributeId, 16);
  mad.writeUInt32BE(h.attributeModifier >>> 0, 20);
}

function encodeGet(
  mad: Buffer,
  mgmtClass: number,
  transactionId: number,
  attributeId: number,
  modifier: number,
  method = METHOD_GET,
) {
  writeMadHeader(mad, {
    mgmtClass,
    classVersion: 1,
    method,
    status: 0,
    transactionId,
    attributeId,
    attributeModifier: modifier,
  });
  mad.fill(0, MAD_DATA_OFFSET, MAD_SIZE);
}

/** A performance-management Get of `attributeId` for one port (PortSelect at data byte 1). */
export function encodePmaGet(mad: Buffer, transactionId: number, attributeId: number, port: number): void {
  encodeGet(mad, MGMT_CLASS_PERF, transactionId, attributeId, 0);
  mad[MAD_DATA_OFFSET + 1] = port;
}

/**
 * A PortCounters Set that clears the counters `counterSelect` (bits as CounterSelect, IBA 16.1.3.5) and, with
 * `xmitWait`, PortXmitWait (CounterSelect2 bit 0), of one port; every other field 0 as the spec asks of a clear.
 */
export function encodePortCountersClear(
  mad: Buffer,
  transactionId: number,
  attributeId: number,
  port: number,
  counterSelect: number,
  xmitWait: boolean,
): void {
  encodeGet(mad, MGMT_CLASS_PERF, transactionId, attributeId, 0, METHOD_SET);
  mad[MAD_DATA_OFFSET + 1] = port;
  mad.writeUInt16BE(counterSelect & 0xffff, MAD_DATA_OFFSET + 2);
  mad[MAD_DATA_OFFSET + 18] = xmitWait ? 1 : 0;
}

/** A LID-routed SubnGet of `attributeId` (PortInfo: the modifier is the port number). M_Key 0. */
export function encodeSmpGet(
  mad: Buffer,
  transactionId: number,
  attributeId: number,
  modifier: number,
): void {
  encodeGet(mad, MGMT_CLASS_SUBN_LID_ROUTED, transactionId, attributeId, modifier);
}
