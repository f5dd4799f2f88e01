import { bytesPerSecondOfRate, type FabricType, RDMA_PAYLOAD_EFFICIENCY } from '@fabscope/topology';

/**
 * How much of a link's line rate a flow turns into payload, by transport and message size.
 *
 * A flow's rate is shared on the wire: max-min fairness runs over line rate, and each flow gets
 * `efficiency × wire share` as payload. Efficiency = transport efficiency × message factor:
 *
 * - RDMA (verbs, PSM2): 99 % of line rate for large messages (seed 002: 12.38 of 12.5 GB/s).
 * - IP (TCP over IPoFabric/IPoIB or Ethernet): measured goodput by the network the receiver is on,
 *   with iperf2's default 128 KiB writes and 16 streams (seed 000: 98.6 Gb/s into the Ethernet
 *   node, 96.9 Gb/s into the Omni-Path node through an Accelerated IPoFabric router).
 * - Message factor m / (m + o): each message costs the port o bytes of wire time, o = line rate ÷
 *   the port's message rate. RDMA: 160 M messages/s (seed 004), so 98 % of the large-message
 *   rate from 4 KiB; IP: 15 M socket writes/s, so 40 GbE reaches 37 Gb/s at 4 KiB (seed 001).
 */
export type Transport = 'rdma' | 'ip';

export const RDMA_MESSAGE_RATE = 160e6;
export const IP_WRITE_RATE = 15e6;
export const IP_EFFICIENCY: Readonly<Record<FabricType, number>> = {
  ethernet: 0.986,
  omnipath: 0.969,
  infiniband: 0.969,
};
/** iperf2's default TCP write (`-l`): the size IP_EFFICIENCY was measured at. */
export const IPERF_DEFAULT_WRITE_BYTES = 128 * 1024;
/** One TCP stream is bounded by the core running it (an assumption: no seed gives a figure). */
export const IP_STREAM_LIMIT_BYTES_PER_SECOND = bytesPerSecondOfRate(30);
/** Storage I/O at queue depth 1 (fio `--iodepth=1`, seed 003): fixed service time per I/O. */
export const STORAGE_IO_LATENCY_S = 200e-6;
export const STORAGE_DEFAULT_IO_BYTES = 1024 * 1024;

function messageFactor(messageBytes: number | null, portBytesPerSecond: number, rate: number): number {
  if (messageBytes === null) return 1;
  return messageBytes / (messageBytes + portBytesPerSecond / rate);
}

/**
 * Payload bytes per wire byte for a flow. `senderRateGbps` is the line rate of the sending port
 * (the message overhead is its time); `receiverNetwork` picks the IP goodput.
 */
export function flowEfficiency(
  transport: Transport,
  messageBytes: number | null,
  senderRateGbps: number,
  receiverNetwork: FabricType,
): number {
  const port = bytesPerSecondOfRate(senderRateGbps);
  if (transport === 'rdma')
    return RDMA_PAYLOAD_EFFICIENCY * messageFactor(messageBytes, port, RDMA_MESSAGE_RATE);
  const measuredAt = messageFactor(IPERF_DEFAULT_WRITE_BYTES, port, IP_WRITE_RATE);
  const factor = Math.min(
    1,
    messageFactor(messageBytes ?? IPERF_DEFAULT_WRITE_BYTES, port, IP_WRITE_RATE) / measuredAt,
  );
  return IP_EFFICIENCY[receiverNetwork] * factor;
}

/** Highest payload rate one storage stream reaches: one I/O in flight at a time. */
export function storageStreamLimit(ioBytes: number, senderRateGbps: number): number {
  return ioBytes / (STORAGE_IO_LATENCY_S + ioBytes / bytesPerSecondOfRate(senderRateGbps));
}
