import { excerpt, ParseError } from '@fabscope/topology';
import { readToolLines } from '../../sources/tool-lines.ts';
import { parseCounter } from '../reader.ts';

const FORMAT = 'ethtool -S';
/** A NIC with many queues prints a few thousand statistics; far more is not ethtool's output. */
export const MAX_ETHTOOL_STATISTICS = 100_000;

/**
 * `ethtool -S <netdev>`: a `NIC statistics:` header, then one `name: value` per line (names may hold spaces,
 * so the value follows the last colon). Anything else, a cut last line or a value that is not an unsigned
 * integer is refused with its line; a name printed twice keeps its first value.
 */
export function parseEthtoolStatistics(text: string): Map<string, number> {
  const stats = new Map<string, number>();
  if (text !== '' && !text.endsWith('\n')) {
    // readToolLines passes a cut blank last line over; ethtool always ends its output with a newline.
    throw new ParseError('the output does not end with a newline: it is cut short', {
      format: FORMAT,
      line: text.split('\n').length,
    });
  }
  let header = false;
  readToolLines(text, FORMAT, (line, at) => {
    if (!header) {
      if (line !== 'NIC statistics:') {
        throw new ParseError(`expected "NIC statistics:", found "${excerpt(line)}"`, {
          format: FORMAT,
          line: at,
        });
      }
      header = true;
      return;
    }
    const colon = line.lastIndexOf(':');
    const name = line.slice(0, colon).trim();
    const value = colon > 0 ? parseCounter(line.slice(colon + 1)) : null;
    if (name === '' || value === null) {
      throw new ParseError(`expected "name: unsigned integer", found "${excerpt(line)}"`, {
        format: FORMAT,
        line: at,
      });
    }
    if (stats.size >= MAX_ETHTOOL_STATISTICS) {
      throw new ParseError(`more than ${MAX_ETHTOOL_STATISTICS} statistics`, { format: FORMAT, line: at });
    }
    if (!stats.has(name)) stats.set(name, value);
  });
  if (!header) throw new ParseError('no "NIC statistics:" header: the output is empty', { format: FORMAT });
  return stats;
}
