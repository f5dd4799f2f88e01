import type { Fabric } from '../model/model.ts';
import { parseError } from './errors.ts';
import { parseIbnetdiscover } from './ibnetdiscover.ts';
import { parseOpareportTopology } from './opareport.ts';
import { parsePortsReport } from './ports-report.ts';

export type TopologyFormat = 'ibnetdiscover' | 'ibnetdiscover-ports' | 'opareport';
export const TOPOLOGY_FORMATS: readonly TopologyFormat[] = [
  'ibnetdiscover',
  'ibnetdiscover-ports',
  'opareport',
];

/** Which format a topology file is in: XML → opareport; `SW 12 1 0x…` lines → ports report; else ibnetdiscover/ibsim. */
export function detectTopologyFormat(text: string): TopologyFormat {
  const head = text.replace(/^\uFEFF/, '').trimStart();
  if (head.startsWith('<')) return 'opareport';
  if (/^(CA|SW|RT)\s+\d+\s+\d+\s+0x[0-9a-f]+\s+\d+x/im.test(text)) return 'ibnetdiscover-ports';
  return 'ibnetdiscover';
}

/** Parses a topology dump; throws ParseError naming the line or XML element at fault. */
export function parseTopology(
  text: string,
  options: { format?: TopologyFormat | 'auto'; name?: string } = {},
): Fabric {
  const format = !options.format || options.format === 'auto' ? detectTopologyFormat(text) : options.format;
  switch (format) {
    case 'ibnetdiscover':
      return parseIbnetdiscover(text, options.name);
    case 'ibnetdiscover-ports':
      return parsePortsReport(text, options.name);
    case 'opareport':
      return parseOpareportTopology(text, options.name);
    default:
      throw parseError(
        `unknown format "${String(format)}"; known: ${TOPOLOGY_FORMATS.join(', ')}`,
        undefined,
        'topology',
      );
  }
}
