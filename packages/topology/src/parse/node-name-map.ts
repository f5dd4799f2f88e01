import { formatGuid } from '../model/guid.ts';
import { excerpt, parseError } from './errors.ts';
import { textLines } from './lines.ts';

const FORMAT = 'node-name-map';
/** A GUID as strtoull(…, 0) reads one: hex with 0x, else decimal (octal's leading 0 is refused as ambiguous). */
const GUID = /^(0x[0-9a-f]+|[1-9][0-9]*)(?=\s|#|$)/i;

/** A site's names by GUID (node or port GUID, `0x` + 16 lower-case hex digits). */
export type NodeNameMap = ReadonlyMap<string, string>;

/**
 * A node-name-map as `ibnetdiscover --node-name-map` and OpenSM read it (rdma-core util/node_name_map.c):
 * `GUID "name"` a line, `#` comments and blank lines skipped, the name the text up to a quote or `#`.
 * Stricter than rdma-core, which skips a line without a name and keeps the first of two names: both are
 * refused here naming the line, as is a GUID that is not one.
 */
export function parseNodeNameMap(text: string): NodeNameMap {
  const map = new Map<string, string>();
  const firstLine = new Map<string, number>();
  const lines = textLines(text.replace(/^\uFEFF/, ''), FORMAT);
  for (let i = 0; i < lines.length; i++) {
    const at = i + 1;
    const line = (lines[i] as string).trim();
    if (line === '' || line.startsWith('#')) continue;
    const guidText = GUID.exec(line)?.[1];
    if (!guidText) {
      throw parseError(`expected a GUID (0x…) and a quoted name, got "${excerpt(line)}"`, at, FORMAT);
    }
    const value = BigInt(guidText);
    if (value >= 1n << 64n) throw parseError(`GUID ${excerpt(guidText)} is longer than 64 bits`, at, FORMAT);
    // rdma-core: strtok(rest, "\"#"), the first run of text between quotes or before a comment.
    const name = /^[^"#]*?"?([^"#]*)/.exec(line.slice(guidText.length).trim())?.[1]?.trim() ?? '';
    if (name === '') throw parseError(`GUID ${guidText} has no name (expected "name")`, at, FORMAT);
    const guid = formatGuid(value);
    const first = firstLine.get(guid);
    if (first !== undefined && map.get(guid) !== name) {
      throw parseError(`GUID ${guid} is named twice ("${map.get(guid)}" at line ${first})`, at, FORMAT);
    }
    map.set(guid, name);
    firstLine.set(guid, at);
  }
  return map;
}
