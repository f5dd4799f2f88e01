/**
 * Parser for `perfquery` text output (infiniband-diags): basic PortCounters or, with `-x`, 64-bit
 * PortCountersExtended, one block per port with `-l`. Data counters (PortXmitData, PortRcvData)
 * count 4-octet words; `transmitBytes`/`receiveBytes` are already × 4, exact in BigInt.
 */
export interface PerfqueryPort {
  lid: number | null;
  port: number;
  extended: boolean;
  /** Every `Name:....value` line of the block, as read (native units). */
  counters: Record<string, bigint>;
  transmitBytes: bigint | null;
  receiveBytes: bigint | null;
  transmitPackets: bigint | null;
  receivePackets: bigint | null;
  transmitWait: bigint | null;
  /** Counters stuck at the maximum of their width (basic PortCounters saturate, never wrap). */
  saturated: string[];
}

/** Field widths of the basic PortCounters attribute (IBA 16.1.3.5); extended data counters are 64-bit. */
const BASIC_WIDTHS: Record<string, number> = {
  SymbolErrorCounter: 16,
  LinkErrorRecoveryCounter: 8,
  LinkDownedCounter: 8,
  PortRcvErrors: 16,
  PortRcvRemotePhysicalErrors: 16,
  PortRcvSwitchRelayErrors: 16,
  PortXmitDiscards: 16,
  PortXmitConstraintErrors: 8,
  PortRcvConstraintErrors: 8,
  LocalLinkIntegrityErrors: 4,
  ExcessiveBufferOverrunErrors: 4,
  VL15Dropped: 16,
  PortXmitData: 32,
  PortRcvData: 32,
  PortXmitPkts: 32,
  PortRcvPkts: 32,
  PortXmitWait: 32,
};
const EXTENDED_64 = new Set([
  'PortXmitData',
  'PortRcvData',
  'PortXmitPkts',
  'PortRcvPkts',
  'PortUnicastXmitPkts',
  'PortUnicastRcvPkts',
  'PortMulticastXmitPkts',
  'PortMulticastRcvPkts',
]);

export class ParseError extends Error {
  override name = 'ParseError';
}

function finish(block: PerfqueryPort): PerfqueryPort {
  const c = block.counters;
  const words = (name: string) => (c[name] === undefined ? null : (c[name] as bigint) * 4n);
  block.transmitBytes = words('PortXmitData');
  block.receiveBytes = words('PortRcvData');
  block.transmitPackets = c.PortXmitPkts ?? null;
  block.receivePackets = c.PortRcvPkts ?? null;
  block.transmitWait = c.PortXmitWait ?? null;
  for (const [name, value] of Object.entries(c)) {
    const width = block.extended && EXTENDED_64.has(name) ? 64 : BASIC_WIDTHS[name];
    if (width !== undefined && width < 64 && value === (1n << BigInt(width)) - 1n) block.saturated.push(name);
  }
  return block;
}

export function parsePerfquery(text: string): PerfqueryPort[] {
  const ports: PerfqueryPort[] = [];
  let current: PerfqueryPort | null = null;
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line === '') continue;
    const header = line.match(/^#\s*Port (extended )?counters:\s*Lid\s+(\d+)\s+port\s+(\d+)/i);
    if (header) {
      if (current) ports.push(finish(current));
      current = {
        lid: Number(header[2]),
        port: Number(header[3]),
        extended: header[1] !== undefined,
        counters: {},
        transmitBytes: null,
        receiveBytes: null,
        transmitPackets: null,
        receivePackets: null,
        transmitWait: null,
        saturated: [],
      };
      continue;
    }
    const field = line.match(/^([A-Za-z0-9]+):\.*(\S+)$/);
    if (!field) continue; // warnings, stderr noise
    const [, name, value] = field as unknown as [string, string, string];
    if (!current) {
      // Output without a header line (some versions): the block starts at PortSelect.
      current = {
        lid: null,
        port: 0,
        extended: false,
        counters: {},
        transmitBytes: null,
        receiveBytes: null,
        transmitPackets: null,
        receivePackets: null,
        transmitWait: null,
        saturated: [],
      };
    }
    if (name === 'PortSelect') {
      current.port = Number(value);
      continue;
    }
    if (/^\d+$/.test(value)) current.counters[name] = BigInt(value);
  }
  if (current) ports.push(finish(current));
  return ports;
}
