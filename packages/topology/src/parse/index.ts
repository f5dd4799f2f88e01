import type { Fabric } from '../model/model.ts';
import { parseError } from './errors.ts';
import { parseIbnetdiscover } from './ibnetdiscover.ts';
import type { NodeNameMap } from './node-name-map.ts';
import { parseOpareportTopology } from './opareport.ts';
import { parsePortsReport } from './ports-report.ts';

const PARSERS = {
  ibnetdiscover: parseIbnetdiscover,
  'ibnetdiscover-ports': parsePortsReport,
  opareport: parseOpareportTopology,
} as const satisfies Record<
  string,
  (text: string, name?: string, options?: { nodeNames?: NodeNameMap }) => Fabric
>;
export type TopologyFormat = keyof typeof PARSERS;
export const TOPOLOGY_FORMATS = Object.keys(PARSERS) as TopologyFormat[];

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
  options: { format?: TopologyFormat | 'auto'; name?: string; nodeNames?: NodeNameMap | undefined } = {},
): Fabric {
  const format = !options.format || options.format === 'auto' ? detectTopologyFormat(text) : options.format;
  if (!Object.hasOwn(PARSERS, format)) {
    throw parseError(
      `unknown format "${String(format)}"; known: ${TOPOLOGY_FORMATS.join(', ')}`,
      undefined,
      'topology',
    );
  }
  return PARSERS[format](text, options.name, { nodeNames: options.nodeNames });
}
