import { bytesPerSecondOfRate, type Fabric } from '@fabscope/topology';

/**
 * Share of the line rate a large-message RDMA flow turns into payload. Seed 002 measured
 * 12.38 GB/s on a 12.5 GB/s (100 Gb/s) Omni-Path link, i.e. 99 %; headers, CRCs and credit
 * returns take the rest. One number for every fabric type keeps the model simple.
 */
export const PAYLOAD_EFFICIENCY = 0.99;

/** Payload bytes/s each channel carries (index link*2 and link*2+1); 0 where the link is down. */
export function payloadCapacities(fabric: Fabric, linkUp: Uint8Array): Float64Array {
  const capacities = new Float64Array(fabric.links.length * 2);
  for (const link of fabric.links) {
    const bytes = linkUp[link.index] === 1 ? bytesPerSecondOfRate(link.rateGbps) * PAYLOAD_EFFICIENCY : 0;
    capacities[link.index * 2] = bytes;
    capacities[link.index * 2 + 1] = bytes;
  }
  return capacities;
}
