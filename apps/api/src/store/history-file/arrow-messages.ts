/**
 * Enough Arrow IPC framing to find the last whole message: 0xFFFFFFFF, int32 metadata length, metadata (flatbuffer
 * `Message`, 8-byte padded), `bodyLength` body bytes; 0xFFFFFFFF 0x00000000 ends (Arrow's encapsulated message format).
 */

export const MESSAGE_SCHEMA = 1;
export const MESSAGE_RECORD_BATCH = 3;

const CONTINUATION = 0xffffffff;
/** Message table fields (Message.fbs): header_type is the 2nd, bodyLength the 4th. */
const FIELD_HEADER_TYPE = 1;
const FIELD_BODY_LENGTH = 3;

export interface MessageSpan {
  /** MessageHeader: 1 schema, 2 dictionary batch, 3 record batch. */
  type: number;
  start: number;
  end: number;
}

/**
 * The whole messages at the start of `bytes` and where the last ends: a cut-short message, an unfitting length or no
 * continuation marker ends the walk (a torn last write, or zeros a crash can leave past the end of what was written).
 */
export function wholeMessages(bytes: Uint8Array): { messages: MessageSpan[]; end: number; ended: boolean } {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const messages: MessageSpan[] = [];
  let at = 0;
  while (at + 8 <= bytes.byteLength) {
    if (view.getUint32(at, true) !== CONTINUATION) break;
    const metadataLength = view.getInt32(at + 4, true);
    if (metadataLength === 0) return { messages, end: at, ended: true };
    const metaStart = at + 8;
    if (metadataLength < 0 || metaStart + metadataLength > bytes.byteLength) break;
    const header = messageHeader(view, metaStart, metadataLength);
    if (!header) break;
    const end = metaStart + metadataLength + header.bodyLength;
    if (end > bytes.byteLength) break;
    messages.push({ type: header.type, start: at, end });
    at = end;
  }
  return { messages, end: at, ended: false };
}

/** header_type and bodyLength of a flatbuffer Message table; null when it does not hold together. */
function messageHeader(
  view: DataView,
  start: number,
  length: number,
): { type: number; bodyLength: number } | null {
  if (length < 8) return null;
  const table = start + view.getUint32(start, true);
  if (table + 4 > start + length) return null;
  const vtable = table - view.getInt32(table, true);
  if (vtable < start || vtable + 4 > start + length) return null;
  const vtableLength = view.getUint16(vtable, true);
  if (vtable + vtableLength > start + length) return null;
  const field = (index: number): number => {
    const slot = 4 + 2 * index;
    return slot + 2 <= vtableLength ? view.getUint16(vtable + slot, true) : 0;
  };
  const typeAt = field(FIELD_HEADER_TYPE);
  const bodyAt = field(FIELD_BODY_LENGTH);
  if (table + typeAt + 1 > start + length || table + bodyAt + 8 > start + length) return null;
  const type = typeAt === 0 ? 0 : view.getUint8(table + typeAt);
  const bodyLength = bodyAt === 0 ? 0 : Number(view.getBigInt64(table + bodyAt, true));
  if (!Number.isSafeInteger(bodyLength) || bodyLength < 0) return null;
  return { type, bodyLength };
}
