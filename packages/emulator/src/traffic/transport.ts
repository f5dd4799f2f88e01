import { bytesPerSecondOfRate, type FabricType, RDMA_PAYLOAD_EFFICIENCY } from '@fabscope/topology';

/** Payload per wire byte: the transport's efficiency times m / (m + o), o a message's wire cost (seeds 001, 004). */
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

/** Payload bytes per wire byte for a flow. */
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
