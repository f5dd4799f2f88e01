import { excerpt, ParseError } from '@fabscope/topology';
import { NO_TRAFFIC_COUNTERS, type ToolTrafficCounters } from '../../fabric/port-sample.ts';
import { readToolLines } from '../tool-lines.ts';

/**
 * `opapmaquery -o getportstatus` output (Omni-Path FastFabric): port counters; per-VL sections (`VL Number n`) skipped.
 * Data counts 8-byte flits (`Xmit Data  N MB (F Flits)`); `transmitBytes`/`receiveBytes` are F × 8, exact.
 */
export interface OpaPortStatus extends ToolTrafficCounters {
  port: number;
  /** Port-level counters by their printed name (`Xmit Pkts`, `Link Downed`, …), native units. */
  counters: Record<string, bigint>;
  linkQuality: number | null;
}

const FORMAT = 'opapmaquery';
/** The sections every getportstatus answer prints (opa-ff stl_print.c): one missing means a cut. */
const SECTIONS = [
  'Performance: Transmit',
  'Performance: Receive',
  'Errors: Signal Integrity',
  'Errors: Security',
  'Errors: Routing and Other Errors',
  'Performance: Congestion',
  'Performance: Bubbles',
] as const;
/** The last counter of the last section (Performance: Bubbles). */
const LAST_COUNTER = 'Rcv Bubble';
const FLIT_BYTES = 8n;
/** Printed for every port by every opapmaquery version (opa-ff IbaTools stl_print.c PrintStlPortStatusRsp). */
const REQUIRED = ['Xmit Data', 'Xmit Pkts', 'Rcv Data', 'Rcv Pkts'];
const PORT = /^Port Number\s+(\d+)$/;
const SECTION = /^(Performance|Errors)\b[^:]*:\s*[A-Za-z][A-Za-z ]*$/;
const DATA = /^(Xmit Data|Rcv Data)\s+\d+\s+MB\s+\((\d+)\s+Flits\)$/;
const QUALITY = /^Link Qual(?:ity)? Indicator\s+(\d+)(?:\s+\([^)]*\))?$/;
const COUNTER = /^([A-Za-z][A-Za-z .]*?)\s{2,}(\d+)$/;

function finish(
  p: OpaPortStatus,
  sections: ReadonlyMap<string, number>,
  startLine: number,
  endLine: number,
): OpaPortStatus {
  const c = p.counters;
  const missing = [
    ...REQUIRED.filter((name) => c[name] === undefined),
    ...SECTIONS.filter((name) => !sections.get(name)).map((name) => `"${name}"`),
    ...(sections.get('Performance: Bubbles') && c[LAST_COUNTER] === undefined ? [LAST_COUNTER] : []),
  ];
  if (missing.length > 0) {
    throw new ParseError(
      `port ${p.port} (from line ${startLine}) ends without ${missing.join(', ')}: the output is cut short`,
      { format: FORMAT, line: endLine },
    );
  }
  p.transmitBytes = (c['Xmit Data'] as bigint) * FLIT_BYTES;
  p.receiveBytes = (c['Rcv Data'] as bigint) * FLIT_BYTES;
  p.transmitPackets = c['Xmit Pkts'] ?? null;
  p.receivePackets = c['Rcv Pkts'] ?? null;
  p.transmitWait = c['Xmit Wait'] ?? null;
  return p;
}

/**
 * Reads every `Port Number N` section. stderr lines and `#` comments may appear anywhere; an
 * unknown line, a port cut short, or no port at all is a ParseError.
 */
export function parseOpapmaquery(text: string): OpaPortStatus[] {
  const ports: OpaPortStatus[] = [];
  let current: { status: OpaPortStatus; line: number; sections: Map<string, number> } | null = null;
  let section = '';
  let inVl = false;
  const fail = (reason: string, line: number) => new ParseError(reason, { format: FORMAT, line });
  const close = (endLine: number) => {
    if (current) ports.push(finish(current.status, current.sections, current.line, endLine));
  };
  const lineCount = readToolLines(text, FORMAT, (line, at) => {
    if (line.startsWith('#')) return;
    const portLine = PORT.exec(line);
    if (portLine) {
      close(at);
      const status = { port: Number(portLine[1]), counters: {}, linkQuality: null, ...NO_TRAFFIC_COUNTERS };
      current = { status, line: at, sections: new Map() };
      section = '';
      inVl = false;
      return;
    }
    if (!current) throw fail(`expected "Port Number N", got "${excerpt(line)}"`, at);
    if (/^VL Number\s+\d+$/.test(line)) {
      inVl = true;
      return;
    }
    if (SECTION.test(line)) {
      section = line.replace(/\s+/g, ' ');
      if (!inVl) current.sections.set(section, current.sections.get(section) ?? 0);
      return;
    }
    if (/^VL Select Mask\s+0x[0-9a-f]+$/i.test(line)) return;
    const data = DATA.exec(line);
    const quality = QUALITY.exec(line);
    const counter = COUNTER.exec(line);
    if (!data && !quality && !counter) {
      throw fail(
        `expected a counter ("Xmit Pkts   17"), a section heading or "VL Number N", got "${excerpt(line)}"`,
        at,
      );
    }
    if (inVl) return;
    current.sections.set(section, (current.sections.get(section) ?? 0) + 1);
    if (data) current.status.counters[data[1] as string] = BigInt(data[2] as string);
    else if (quality) current.status.linkQuality = Number(quality[1]);
    else if (counter) current.status.counters[counter[1] as string] = BigInt(counter[2] as string);
  });
  close(lineCount);
  if (ports.length === 0) throw fail('no "Port Number N" section found', lineCount);
  return ports;
}
