/** How net-snmp gives an agent's values: a table's rows by index, OCTET STRINGs as Buffers. */

export type SnmpTable = Record<string, Record<string, unknown>>;

/** An OCTET STRING as text: UTF-8 when printable, else hex (a MAC, a binary chassis id). */
export function octetText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (!Buffer.isBuffer(value)) return '';
  const text = value.toString('utf8');
  // biome-ignore lint/suspicious/noControlCharactersInRegex: printable means no control characters
  return /^[^\u0000-\u001f\u007f\ufffd]*$/.test(text) ? text : macText(value);
}

/** Bytes as colon-separated hex, as a MAC is printed. */
export function macText(value: Buffer): string {
  return [...value].map((b) => b.toString(16).padStart(2, '0')).join(':');
}
