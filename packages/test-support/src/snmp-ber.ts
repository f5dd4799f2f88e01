// The BER subset an SNMPv2c agent speaks (RFC 3416): enough to read a Get/GetNext/GetBulk and write its Response.

/** Application and context tags of SNMPv2 values (RFC 2578, RFC 3416). */
export const BER = {
  integer: 0x02,
  octetString: 0x04,
  null: 0x05,
  oid: 0x06,
  sequence: 0x30,
  ipAddress: 0x40,
  counter32: 0x41,
  gauge32: 0x42,
  timeTicks: 0x43,
  opaque: 0x44,
  counter64: 0x46,
  noSuchObject: 0x80,
  noSuchInstance: 0x81,
  endOfMibView: 0x82,
  getRequest: 0xa0,
  getNextRequest: 0xa1,
  response: 0xa2,
  getBulkRequest: 0xa5,
} as const;

function lengthBytes(length: number): Buffer {
  if (length < 0x80) return Buffer.from([length]);
  const bytes: number[] = [];
  for (let n = length; n > 0; n = Math.floor(n / 256)) bytes.unshift(n & 0xff);
  return Buffer.from([0x80 | bytes.length, ...bytes]);
}

export function tlv(tag: number, content: Buffer): Buffer {
  return Buffer.concat([Buffer.from([tag]), lengthBytes(content.length), content]);
}

/** A signed integer, two's complement, fewest bytes. */
export function encodeInteger(tag: number, value: bigint): Buffer {
  const bytes: number[] = [];
  let v = value;
  do {
    bytes.unshift(Number(v & 0xffn));
    v >>= 8n;
  } while (!((v === 0n && (bytes[0] as number) < 0x80) || (v === -1n && (bytes[0] as number) >= 0x80)));
  return tlv(tag, Buffer.from(bytes));
}

export function encodeOid(oid: string): Buffer {
  const arcs = oid.split('.').map(Number);
  const bytes: number[] = [40 * (arcs[0] ?? 0) + (arcs[1] ?? 0)];
  for (const arc of arcs.slice(2)) {
    const chunk = [arc & 0x7f];
    for (let n = Math.floor(arc / 128); n > 0; n = Math.floor(n / 128)) chunk.unshift((n & 0x7f) | 0x80);
    bytes.push(...chunk);
  }
  return tlv(BER.oid, Buffer.from(bytes));
}

/** One TLV read from `buffer` at `at`: its tag, content, and where the next one starts. */
export interface Element {
  tag: number;
  content: Buffer;
  end: number;
}

export function readElement(buffer: Buffer, at: number): Element {
  const tag = buffer[at];
  let length = buffer[at + 1];
  if (tag === undefined || length === undefined) throw new Error(`BER element cut short at byte ${at}`);
  let start = at + 2;
  if (length & 0x80) {
    const n = length & 0x7f;
    if (n === 0 || n > 4 || start + n > buffer.length) throw new Error(`bad BER length at byte ${at}`);
    length = buffer.readUIntBE(start, n);
    start += n;
  }
  if (start + length > buffer.length) throw new Error(`BER element at byte ${at} runs past the datagram`);
  return { tag, content: buffer.subarray(start, start + length), end: start + length };
}

/** The elements a constructed value holds. */
export function children(content: Buffer): Element[] {
  const out: Element[] = [];
  for (let at = 0; at < content.length; ) {
    const e = readElement(content, at);
    out.push(e);
    at = e.end;
  }
  return out;
}

export function decodeInteger(content: Buffer): number {
  return content.length === 0 ? 0 : content.readIntBE(0, Math.min(content.length, 6));
}

export function decodeOid(content: Buffer): string {
  const first = content[0] ?? 0;
  const arcs = [Math.min(2, Math.floor(first / 40)), first - 40 * Math.min(2, Math.floor(first / 40))];
  let n = 0;
  for (const byte of content.subarray(1)) {
    n = n * 128 + (byte & 0x7f);
    if (!(byte & 0x80)) {
      arcs.push(n);
      n = 0;
    }
  }
  return arcs.join('.');
}
