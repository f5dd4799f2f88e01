// A subnet's agents at the libibumad boundary, for sweeps of what ibsim cannot show (64-bit error counters,
// PortSamplesControl, clears): each answer written bit by bit where IBA vol. 1 puts the field (16.1.3.2
// PortSamplesControl, 16.1.3.5 PortCounters, 16.1.4.11 PortCountersExtended, 13.4.8.1 ClassPortInfo; the
// same offsets as libibmad fields.c), with the plain bit writer, never with the reader's own decoders.
import { MAD_DATA_OFFSET, MAD_SIZE } from '../../src/sources/infiniband/ib-mad.ts';
import { PORT_COUNTERS_ERRORS } from '../../src/sources/infiniband/ib-pm-counters.ts';
import type { UmadPort } from '../../src/sources/infiniband/ib-umad.ts';
import { setBits } from './ib-spec-bits.ts';

/** One port as its agents answer for it. */
export interface FakePort {
  /** Narrow PortCounters: the error counters by perfquery name, and PortXmitWait. */
  errors: Record<string, number>;
  xmitWait: number;
  /** PortCountersExtended's 64-bit errors (by perfquery name) and PortXmitWait: answered where the PMA has them. */
  errors64: Record<string, bigint>;
  xmitWait64: bigint;
  /** PortSamplesControl Tick and CounterWidth code; null: the PMA refuses the attribute. */
  samples: { tick: number; counterWidth: number } | null;
}

/** One LID's PMA: its ClassPortInfo masks and its ports by number. */
export interface FakeAgent {
  capMask: number;
  capMask2: number;
  ports: Map<number, FakePort>;
}

export const STATUS_UNSUPPORTED_ATTRIBUTE = 0x000c;
const HEADER = 64;
/** PortCounters field bit offsets and widths (16.1.3.5), in PORT_COUNTERS_ERRORS order. */
const PC_ERROR_BITS: readonly (readonly [number, number])[] = [
  [32, 16],
  [48, 8],
  [56, 8],
  [64, 16],
  [80, 16],
  [96, 16],
  [112, 16],
  [128, 8],
  [136, 8],
  [152, 4],
  [156, 4],
  [176, 16],
];

export function fakePort(overrides: Partial<FakePort> = {}): FakePort {
  return {
    errors: Object.fromEntries(PORT_COUNTERS_ERRORS.map((n) => [n, 0])),
    xmitWait: 0,
    errors64: Object.fromEntries(PORT_COUNTERS_ERRORS.map((n) => [n, 0n])),
    xmitWait64: 0n,
    samples: null,
    ...overrides,
  };
}

/** The sent MADs' LID, class, method, attribute and port, in order. */
export interface SentMad {
  lid: number;
  mgmtClass: number;
  method: number;
  attributeId: number;
  port: number;
}

/** A umad port whose MADs the fake agents of `agents` (by LID) answer at once. */
export class FakeUmad implements UmadPort {
  readonly headerSize = HEADER;
  readonly sent: SentMad[] = [];
  private readonly answers: { agent: number; mad: Buffer }[] = [];

  constructor(readonly agents: Map<number, FakeAgent>) {}

  register(mgmtClass: number): number {
    return mgmtClass;
  }

  send(agent: number, umad: Buffer, lid: number): boolean {
    const request = umad.subarray(HEADER, HEADER + MAD_SIZE);
    const mad = Buffer.from(request);
    const d = MAD_DATA_OFFSET;
    const sent = {
      lid,
      mgmtClass: mad[1] as number,
      method: mad[3] as number,
      attributeId: mad.readUInt16BE(16),
      port: mad[d + 1] as number,
    };
    this.sent.push(sent);
    const pma = this.agents.get(lid);
    if (!pma) return true; // nobody there: no answer comes
    mad[3] = 0x81;
    const status = this.answer(pma, sent, request, mad);
    mad.writeUInt16BE(status, 4);
    this.answers.push({ agent, mad });
    return true;
  }

  /** Writes the answer's data; returns its MAD status. */
  private answer(pma: FakeAgent, sent: SentMad, request: Buffer, mad: Buffer): number {
    const d = MAD_DATA_OFFSET;
    if (sent.mgmtClass === 0x01) {
      // PortInfo: Active, LinkUp, 4x EDR (CapabilityMask IsExtendedSpeedsSupported).
      setBits(mad, d, 160, 32, 0x4000n);
      setBits(mad, d, 248, 8, 2n);
      setBits(mad, d, 260, 4, 4n);
      setBits(mad, d, 264, 4, 5n);
      setBits(mad, d, 280, 4, 4n);
      setBits(mad, d, 496, 4, 2n);
      return 0;
    }
    if (sent.attributeId === 0x0001) {
      setBits(mad, d, 16, 16, BigInt(pma.capMask));
      setBits(mad, d, 32, 27, BigInt(pma.capMask2));
      return 0;
    }
    const port = pma.ports.get(sent.port);
    if (!port) return 0x001c;
    if (sent.attributeId === 0x0010) {
      if (!port.samples) return STATUS_UNSUPPORTED_ATTRIBUTE;
      setBits(mad, d, 16, 8, BigInt(port.samples.tick));
      setBits(mad, d, 29, 3, BigInt(port.samples.counterWidth));
      return 0;
    }
    if (sent.attributeId === 0x0012) {
      if (sent.method === 0x02) clear(port, request);
      PC_ERROR_BITS.forEach(([offset, width], k) => {
        setBits(mad, d, offset, width, BigInt(port.errors[PORT_COUNTERS_ERRORS[k] as string] ?? 0));
      });
      setBits(mad, d, 320, 32, BigInt(port.xmitWait));
      return 0;
    }
    if (sent.attributeId === 0x001d) {
      // The data counters stay 0; the additional counters only where CapabilityMask2 says so.
      if (pma.capMask2 & 0x2) {
        PORT_COUNTERS_ERRORS.forEach((name, k) => {
          setBits(mad, d, 576 + 64 * k, 64, port.errors64[name] ?? 0n);
        });
        setBits(mad, d, 1344, 64, port.xmitWait64);
      }
      return 0;
    }
    return STATUS_UNSUPPORTED_ATTRIBUTE;
  }

  recv(umad: Buffer): number {
    const next = this.answers.shift();
    if (!next) return -1;
    umad.fill(0, 0, HEADER);
    next.mad.copy(umad, HEADER);
    return next.agent;
  }

  close(): void {}
}

/** A PortCounters Set: clears the counters its CounterSelect (bits 16..31) and CounterSelect2 (bit 144) name. */
function clear(port: FakePort, request: Buffer): void {
  const d = MAD_DATA_OFFSET;
  const select = request.readUInt16BE(d + 2);
  PORT_COUNTERS_ERRORS.forEach((name, k) => {
    if ((select >> k) & 1) port.errors[name] = 0;
  });
  if ((request[d + 18] as number) & 1) port.xmitWait = 0;
}
