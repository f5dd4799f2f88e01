// Bits of a MAD as IBA vol. 1 numbers them: from the most significant bit of byte 0 of an attribute. A plain
// reader and writer, one bit at a time, independent of the encoders under test.

export function getBits(buf: Buffer, at: number, offset: number, width: number): bigint {
  let v = 0n;
  for (let b = offset; b < offset + width; b++) {
    const byte = buf[at + (b >> 3)] as number;
    v = (v << 1n) | BigInt((byte >> (7 - (b & 7))) & 1);
  }
  return v;
}

export function setBits(buf: Buffer, at: number, offset: number, width: number, value: bigint): void {
  for (let i = 0; i < width; i++) {
    const b = offset + width - 1 - i;
    const bit = Number((value >> BigInt(i)) & 1n);
    const idx = at + (b >> 3);
    const mask = 1 << (7 - (b & 7));
    buf[idx] = bit ? (buf[idx] as number) | mask : (buf[idx] as number) & ~mask;
  }
}
