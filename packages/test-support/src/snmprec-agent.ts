// A fast simulated switch for benchmarks: an snmprec recording (`OID|TYPE|VALUE` lines, as snmpsim reads them)
// answered over SNMPv2c from its sorted OIDs, at the cost of encoding the answer, as a switch's agent costs.
// snmpsim (Python) stays for the functional tests: it is what serves real devices' recordings.
import { createSocket, type Socket } from 'node:dgram';
import { readFileSync } from 'node:fs';
import {
  BER,
  children,
  decodeInteger,
  decodeOid,
  encodeInteger,
  encodeOid,
  readElement,
  tlv,
} from './snmp-ber.ts';

/** One recorded object: its OID's arcs, and its value's BER (or, for snmpsim's numeric module, how to compute it). */
interface Entry {
  oid: string;
  arcs: number[];
  encodedOid: Buffer;
  value: Buffer | ((nowMs: number) => Buffer);
}

/** snmprec type tags (RFC 1902 numbers) → BER tags; an `x` suffix means the value is hex. */
const TAGS: Record<string, number> = {
  '2': BER.integer,
  '4': BER.octetString,
  '5': BER.null,
  '6': BER.oid,
  '64': BER.ipAddress,
  '65': BER.counter32,
  '66': BER.gauge32,
  '67': BER.timeTicks,
  '68': BER.opaque,
  '70': BER.counter64,
};
const MODULUS: Record<number, bigint> = {
  [BER.counter32]: 1n << 32n,
  [BER.gauge32]: 1n << 32n,
  [BER.timeTicks]: 1n << 32n,
  [BER.counter64]: 1n << 64n,
};
/** A response at most this big: one UDP datagram, as net-snmp and snmp_exporter accept. */
const MAX_RESPONSE_BYTES = 65_000;

function compareArcs(a: readonly number[], b: readonly number[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const d = (a[i] as number) - (b[i] as number);
    if (d !== 0) return d;
  }
  return a.length - b.length;
}

function encodeValue(tag: number, text: string, hex: boolean): Buffer {
  if (tag === BER.null) return tlv(tag, Buffer.alloc(0));
  if (tag === BER.oid) return encodeOid(text);
  if (tag === BER.octetString || tag === BER.opaque) return tlv(tag, Buffer.from(text, hex ? 'hex' : 'utf8'));
  if (tag === BER.ipAddress) return tlv(tag, Buffer.from(text.split('.').map(Number)));
  const n = BigInt(hex ? `0x${text}` : text);
  const modulus = MODULUS[tag];
  return encodeInteger(tag, modulus === undefined ? n : ((n % modulus) + modulus) % modulus);
}

/** snmpsim's numeric module with absolute time: `initial + rate × Unix seconds`. */
function numeric(tag: number, params: string, line: number): (nowMs: number) => Buffer {
  const p = Object.fromEntries(params.split(',').map((kv) => kv.split('=') as [string, string]));
  if (p.atime !== '1' || p.rate === undefined)
    throw new Error(`line ${line}: only numeric with rate and atime=1 is served, not "${params}"`);
  const rate = Number(p.rate);
  const initial = BigInt(p.initial ?? '0');
  return (nowMs) => encodeValue(tag, String(initial + BigInt(Math.round((rate * nowMs) / 1000))), false);
}

/** A recording's objects in OID order; a line it cannot serve is an error naming the line. */
export function parseSnmprec(text: string): Entry[] {
  const entries: Entry[] = [];
  for (const [k, raw] of text.split('\n').entries()) {
    if (raw.trim() === '' || raw.startsWith('#')) continue;
    const m = /^([0-9.]+)\|(\d+)(x?)(?::(\w+))?\|(.*)$/.exec(raw);
    const tag = m ? TAGS[m[2] as string] : undefined;
    if (!m || tag === undefined) throw new Error(`line ${k + 1}: not an snmprec line I can serve: "${raw}"`);
    const [, oid, , hex, variation, value] = m as unknown as string[];
    if (variation !== undefined && variation !== 'numeric')
      throw new Error(`line ${k + 1}: variation module "${variation}" is not served`);
    entries.push({
      oid: oid as string,
      arcs: (oid as string).split('.').map(Number),
      encodedOid: encodeOid(oid as string),
      value: variation
        ? numeric(tag, value as string, k + 1)
        : encodeValue(tag, value as string, hex === 'x'),
    });
  }
  return entries.sort((a, b) => compareArcs(a.arcs, b.arcs));
}

/** One recording's answers: Get, GetNext and GetBulk over its sorted objects. */
export class RecordedMib {
  private readonly entries: Entry[];
  private readonly byOid: Map<string, number>;
  constructor(entries: Entry[]) {
    this.entries = entries;
    this.byOid = new Map(entries.map((e, k) => [e.oid, k]));
  }

  /** The index of the first object after `oid`: a walk's next OID is the last one answered, found at once. */
  private after(oid: string): number {
    const exact = this.byOid.get(oid);
    if (exact !== undefined) return exact + 1;
    const arcs = oid.split('.').map(Number);
    let lo = 0;
    let hi = this.entries.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (compareArcs((this.entries[mid] as Entry).arcs, arcs) <= 0) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  private varbind(k: number, nowMs: number): Buffer {
    const e = this.entries[k] as Entry;
    const value = typeof e.value === 'function' ? e.value(nowMs) : e.value;
    return tlv(BER.sequence, Buffer.concat([e.encodedOid, value]));
  }

  private missing(oid: string, tag: number): Buffer {
    return tlv(BER.sequence, Buffer.concat([encodeOid(oid), tlv(tag, Buffer.alloc(0))]));
  }

  get(oid: string, nowMs: number): Buffer {
    const k = this.byOid.get(oid);
    return k === undefined ? this.missing(oid, BER.noSuchInstance) : this.varbind(k, nowMs);
  }

  /** GetNext from `oid`: the varbind and the OID to go on from (null at the end of the MIB). */
  next(oid: string, nowMs: number): [Buffer, string | null] {
    const k = this.after(oid);
    if (k >= this.entries.length) return [this.missing(oid, BER.endOfMibView), null];
    return [this.varbind(k, nowMs), (this.entries[k] as Entry).oid];
  }

  /** GetBulk (RFC 3416 4.2.3): non-repeaters once, then rows of the rest until all end or the answer is full. */
  bulk(oids: string[], nonRepeaters: number, maxRepetitions: number, nowMs: number): Buffer[] {
    const out = oids.slice(0, nonRepeaters).map((o) => this.next(o, nowMs)[0]);
    const cursors: (string | null)[] = oids.slice(nonRepeaters);
    let bytes = out.reduce((n, b) => n + b.length, 0);
    for (let r = 0; r < maxRepetitions && cursors.some((c) => c !== null); r++) {
      const row: Buffer[] = [];
      for (const [c, oid] of cursors.entries()) {
        if (oid === null) {
          row.push(this.missing(oids[nonRepeaters + c] as string, BER.endOfMibView));
          continue;
        }
        const [vb, nextOid] = this.next(oid, nowMs);
        row.push(vb);
        cursors[c] = nextOid;
      }
      const rowBytes = row.reduce((n, b) => n + b.length, 0);
      if (r > 0 && bytes + rowBytes > MAX_RESPONSE_BYTES) break;
      out.push(...row);
      bytes += rowBytes;
    }
    return out;
  }
}

/** The Response to one datagram, or null for what an agent drops (another community, a PDU it does not answer). */
export function answer(
  mibs: ReadonlyMap<string, RecordedMib>,
  datagram: Buffer,
  nowMs: number,
): Buffer | null {
  const [version, community, pdu] = children(readElement(datagram, 0).content);
  if (!version || !community || !pdu || decodeInteger(version.content) !== 1) return null;
  const mib = mibs.get(community.content.toString('utf8'));
  if (!mib) return null;
  const [requestId, a, b, list] = children(pdu.content);
  if (!requestId || !a || !b || !list) return null;
  const oids = children(list.content).map((vb) =>
    decodeOid((children(vb.content)[0] as { content: Buffer }).content),
  );
  let varbinds: Buffer[];
  if (pdu.tag === BER.getRequest) varbinds = oids.map((o) => mib.get(o, nowMs));
  else if (pdu.tag === BER.getNextRequest) varbinds = oids.map((o) => mib.next(o, nowMs)[0]);
  else if (pdu.tag === BER.getBulkRequest)
    varbinds = mib.bulk(
      oids,
      Math.max(0, decodeInteger(a.content)),
      Math.max(0, decodeInteger(b.content)),
      nowMs,
    );
  else return null;
  const response = tlv(
    BER.response,
    Buffer.concat([
      tlv(BER.integer, requestId.content),
      encodeInteger(BER.integer, 0n),
      encodeInteger(BER.integer, 0n),
      tlv(BER.sequence, Buffer.concat(varbinds)),
    ]),
  );
  return tlv(
    BER.sequence,
    Buffer.concat([tlv(BER.integer, version.content), tlv(BER.octetString, community.content), response]),
  );
}

/** Agents serving recordings, each on its own loopback UDP port. */
export interface SnmprecAgents {
  /** Community → UDP port on 127.0.0.1. */
  ports: Map<string, number>;
  stop(): Promise<void>;
}

/** Serves each recording (community → .snmprec path) from its own UDP port of 127.0.0.1, in this process. */
export async function serveSnmprec(
  recordings: Record<string, string>,
  now: () => number = Date.now,
): Promise<SnmprecAgents> {
  const sockets: Socket[] = [];
  const ports = new Map<string, number>();
  for (const [community, file] of Object.entries(recordings)) {
    const mibs = new Map([[community, new RecordedMib(parseSnmprec(readFileSync(file, 'utf8')))]]);
    const socket = createSocket('udp4');
    socket.on('message', (datagram, rinfo) => {
      let reply: Buffer | null = null;
      try {
        reply = answer(mibs, datagram, now());
      } catch {
        // A malformed request is dropped, as an agent drops it: the manager's timeout reports it.
      }
      if (reply) socket.send(reply, rinfo.port, rinfo.address);
    });
    await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
    sockets.push(socket);
    ports.set(community, socket.address().port);
  }
  return {
    ports,
    stop: async () => {
      await Promise.all(sockets.map((s) => new Promise<void>((resolve) => s.close(() => resolve()))));
    },
  };
}
