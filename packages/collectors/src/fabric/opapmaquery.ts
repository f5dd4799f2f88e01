/**
 * Parser for `opapmaquery -o getportstatus` (Omni-Path FastFabric) text output. Port-level
 * counters come before the per-VL sections (`VL Number n`), which are skipped. Data counters are
 * in 8-byte flits (`Xmit Data  N MB (F Flits)`); `transmitBytes`/`receiveBytes` are F × 8, exact.
 */
export interface OpaPortStatus {
  port: number;
  /** Port-level counters by their printed name (`Xmit Pkts`, `Link Downed`, …), native units. */
  counters: Record<string, bigint>;
  linkQuality: number | null;
  transmitBytes: bigint | null;
  receiveBytes: bigint | null;
  transmitPackets: bigint | null;
  receivePackets: bigint | null;
  transmitWait: bigint | null;
}

const FLIT_BYTES = 8n;

function finish(p: OpaPortStatus): OpaPortStatus {
  const c = p.counters;
  p.transmitBytes = c['Xmit Data'] === undefined ? null : (c['Xmit Data'] as bigint) * FLIT_BYTES;
  p.receiveBytes = c['Rcv Data'] === undefined ? null : (c['Rcv Data'] as bigint) * FLIT_BYTES;
  p.transmitPackets = c['Xmit Pkts'] ?? null;
  p.receivePackets = c['Rcv Pkts'] ?? null;
  p.transmitWait = c['Xmit Wait'] ?? null;
  return p;
}

export function parseOpapmaquery(text: string): OpaPortStatus[] {
  const ports: OpaPortStatus[] = [];
  let current: OpaPortStatus | null = null;
  let inVl = false;
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    const portLine = line.match(/^Port Number\s+(\d+)$/);
    if (portLine) {
      if (current) ports.push(finish(current));
      current = {
        port: Number(portLine[1]),
        counters: {},
        linkQuality: null,
        transmitBytes: null,
        receiveBytes: null,
        transmitPackets: null,
        receivePackets: null,
        transmitWait: null,
      };
      inVl = false;
      continue;
    }
    if (!current) continue;
    if (/^VL Number\s+\d+/.test(line)) {
      inVl = true;
      continue;
    }
    if (inVl) continue;
    const data = line.match(/^(Xmit Data|Rcv Data)\s+\d+\s+MB\s+\((\d+)\s+Flits\)$/);
    if (data) {
      current.counters[data[1] as string] = BigInt(data[2] as string);
      continue;
    }
    const quality = line.match(/^Link Qual(?:ity)? Indicator\s+(\d+)/);
    if (quality) {
      current.linkQuality = Number(quality[1]);
      continue;
    }
    const counter = line.match(/^([A-Za-z][A-Za-z .]*?)\s{2,}(\d+)$/);
    if (counter) current.counters[counter[1] as string] = BigInt(counter[2] as string);
  }
  if (current) ports.push(finish(current));
  return ports;
}
