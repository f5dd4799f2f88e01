import { excerpt, ParseError } from '@fabscope/topology';
import { NO_TRAFFIC_COUNTERS, type ToolTrafficCounters } from '../../fabric/port-sample.ts';
import { readToolLines } from '../tool-lines.ts';
import { PC_LAYOUT, PORT_COUNTERS_ERRORS } from './ib-pm-counters.ts';

/**
 * `perfquery` output (infiniband-diags): PortCounters or, with `-x`, PortCountersExtended, a block per port with `-l`.
 * PortXmitData/PortRcvData count 4-octet words; `transmitBytes`/`receiveBytes` are already × 4, exact in BigInt.
 */
export interface PerfqueryPort extends ToolTrafficCounters {
  /** The attribute read: PortCounters, PortCountersExtended, PortRcvErrorDetails, … */
  attribute: string;
  lid: number | null;
  /** The port read; null for `perfquery -a`, whose one block sums every port of the node. */
  port: number | null;
  /**
   * `perfquery -a`: PortSelect 255 (AllPortSelect, IBA 16.1.3.5) — the counters of every port of
   * the node added together, which no single port has. Never to be read as a port 255.
   */
  allPorts: boolean;
  extended: boolean;
  /** Every `Name:....value` line of the block, as read (native units). */
  counters: Record<string, bigint>;
  /** Counters stuck at the maximum of their width (basic PortCounters saturate, never wrap). */
  saturated: string[];
}

/** The data and packet counters of both attributes (64-bit in PortCountersExtended). */
const DATA_COUNTERS = ['PortXmitData', 'PortRcvData', 'PortXmitPkts', 'PortRcvPkts'];

/** Field widths (bits) of the basic PortCounters attribute (IBA 16.1.3.5); the two packed in byte 19 have 4. */
export const BASIC_WIDTHS: Readonly<Record<string, number>> = Object.fromEntries(
  [...PORT_COUNTERS_ERRORS, ...DATA_COUNTERS, 'PortXmitWait'].map((name) => [
    name,
    name in PC_LAYOUT ? PC_LAYOUT[name as keyof typeof PC_LAYOUT][1] * 8 : 4,
  ]),
);

const FORMAT = 'perfquery';
const parseError = (message: string, line: number) => new ParseError(message, { format: FORMAT, line });
/** PortSelect that asks for every port at once (AllPortSelect). */
const ALL_PORTS = 255;

/** Fields every version of perfquery prints in a complete block; one missing means the output was cut. */
const REQUIRED: Record<string, readonly string[]> = {
  PortCountersExtended: ['PortSelect', 'CounterSelect', ...DATA_COUNTERS],
  // The error counters as the MAD reader names them (IBA PortCounters, perfquery's names).
  PortCounters: ['PortSelect', 'CounterSelect', ...PORT_COUNTERS_ERRORS, ...DATA_COUNTERS],
};
/** With CounterSelect2 (CapMask2 AdditionalPortCountersExtended), the 64-bit error counters follow. */
const REQUIRED_AFTER_SELECT2 = [
  'SymbolErrorCounter',
  'LinkErrorRecoveryCounter',
  'LinkDownedCounter',
  'PortRcvErrors',
  'PortXmitDiscards',
  'PortXmitWait',
];

/** PortCounters ClassPortInfo CapMask bit 9, IsExtendedWidthSupported: the unicast/multicast counters follow. */
const EXT_WIDTH_SUPPORTED = 0x200;
const REQUIRED_WITH_EXT_WIDTH = [
  'PortUnicastXmitPkts',
  'PortUnicastRcvPkts',
  'PortMulticastXmitPkts',
  'PortMulticastRcvPkts',
];
/** The counters PortCountersExtended has 64 bits for. */
const EXTENDED_64 = new Set([...DATA_COUNTERS, ...REQUIRED_WITH_EXT_WIDTH]);

/**
 * `# Port extended counters: Lid 12 port 7 (CapMask: 0x5A00 CapMask2: 0x0000000)`, `# Port counters: Lid 23 port 1`,
 * `# PortRcvErrorDetails counters: Lid 5 port 1`, `# PortSamplesControl: Lid 5 port 1` (infiniband-diags/perfquery.c).
 */
const HEADER = /^#\s*([A-Za-z][\w -]*?)(?:\s+counters)?:\s*(.*?)\s+port\s+(\d+)(?:\s+\(.*\))?$/;
const FIELD = /^([A-Za-z][A-Za-z0-9_]*):\.*(.*)$/;

function attributeOf(title: string): string {
  if (title === 'Port') return 'PortCounters';
  if (title === 'Port extended') return 'PortCountersExtended';
  return title.replace(/\s+/g, ' ');
}

/** A block being read: where it started and its header's CapMask (0 when absent). */
type OpenBlock = PerfqueryPort & { line: number; capMask: number };

function emptyBlock(
  attribute: string,
  lid: number | null,
  port: number,
  line: number,
  capMask = 0,
): OpenBlock {
  return {
    attribute,
    lid,
    port,
    allPorts: false,
    extended: attribute === 'PortCountersExtended',
    counters: {},
    ...NO_TRAFFIC_COUNTERS,
    saturated: [],
    line,
    capMask,
  };
}

function finish(block: OpenBlock, seen: Set<string>, endLine: number): PerfqueryPort {
  const required = [
    ...(REQUIRED[block.attribute] ?? []),
    ...(block.extended && seen.has('CounterSelect2') ? REQUIRED_AFTER_SELECT2 : []),
    ...(block.extended && (block.capMask & EXT_WIDTH_SUPPORTED) !== 0 ? REQUIRED_WITH_EXT_WIDTH : []),
  ];
  const missing = required.filter((name) => !seen.has(name));
  if (missing.length > 0 || seen.size === 0) {
    throw parseError(
      `the ${block.attribute} block of ${block.port === ALL_PORTS ? 'all ports' : `port ${block.port}`} (from line ${block.line}) ends without ${missing.length > 0 ? missing.join(', ') : 'any counter'}: the output is cut short`,
      endLine,
    );
  }
  const { line: _line, capMask: _capMask, ...port } = block;
  if (port.port === ALL_PORTS) {
    port.allPorts = true;
    port.port = null;
  }
  const c = port.counters;
  const words = (name: string) => (c[name] === undefined ? null : (c[name] as bigint) * 4n);
  if (port.attribute === 'PortCounters' || port.extended) {
    port.transmitBytes = words('PortXmitData');
    port.receiveBytes = words('PortRcvData');
    port.transmitPackets = c.PortXmitPkts ?? null;
    port.receivePackets = c.PortRcvPkts ?? null;
    port.transmitWait = c.PortXmitWait ?? null;
  }
  for (const [name, value] of Object.entries(c)) {
    const width = port.extended ? (EXTENDED_64.has(name) ? 64 : undefined) : BASIC_WIDTHS[name];
    if (width !== undefined && width < 64 && value === (1n << BigInt(width)) - 1n) port.saturated.push(name);
  }
  return port;
}

/**
 * Parses a block per port and attribute from its `# … counters: Lid N port P` header (old versions: its PortSelect).
 * stderr lines and `#` comments may be anywhere; other lines, a cut block or none is a ParseError naming the line.
 */
export function parsePerfquery(text: string): PerfqueryPort[] {
  const ports: PerfqueryPort[] = [];
  let current: OpenBlock | null = null;
  let seen = new Set<string>();
  const close = (endLine: number) => {
    if (current) ports.push(finish(current, seen, endLine));
    current = null;
    seen = new Set();
  };
  const lineCount = readToolLines(text, FORMAT, (line, at) => {
    const header = HEADER.exec(line);
    if (header) {
      close(at);
      const lid = /^Lid\s+(\d+)$/i.exec(header[2] as string);
      current = emptyBlock(
        attributeOf(header[1] as string),
        lid ? Number(lid[1]) : null,
        Number(header[3]),
        at,
        Number.parseInt(/CapMask:\s*0x([0-9a-f]+)/i.exec(line)?.[1] ?? '0', 16),
      );
      return;
    }
    if (line.startsWith('#')) return; // a comment
    const field = FIELD.exec(line);
    if (!field) {
      throw parseError(
        `expected "Name:....value" or a "# Port counters: Lid N port P" header, got "${excerpt(line)}"`,
        at,
      );
    }
    const [, name, value] = field as unknown as [string, string, string];
    // Without header lines (old versions) each block starts at its PortSelect.
    if (current && name === 'PortSelect' && seen.has('PortSelect')) close(at);
    if (!current) {
      if (name !== 'PortSelect') {
        throw parseError(`"${name}" before any "# Port counters: Lid N port P" header or PortSelect`, at);
      }
      current = emptyBlock('PortCounters', null, 0, at);
    }
    if (seen.has(name)) {
      throw parseError(`${name} appears twice in the block from line ${current.line}`, at);
    }
    seen.add(name);
    if (/^\d+$/.test(value)) {
      if (name !== 'PortSelect') current.counters[name] = BigInt(value);
      else if (current.port === 0) current.port = Number(value);
    } else if (!/^0x[0-9a-f]+$/i.test(value) && REQUIRED[current.attribute]) {
      throw parseError(`${name}: expected a number, got "${excerpt(value)}"`, at);
    }
  });
  close(lineCount);
  if (ports.length === 0) {
    throw parseError(
      'no counters block ("# Port counters: Lid N port P" and Name:....value lines) found',
      lineCount,
    );
  }
  return ports;
}
