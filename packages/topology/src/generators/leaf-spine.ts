import { FabricBuilder } from '../model/builder.ts';
import { generatedGuid } from '../model/guid.ts';
import type { Fabric } from '../model/model.ts';

export interface LeafSpineOptions {
  name: string;
  spineCount: number;
  leafCount: number;
  hostsPerLeaf: number;
  /** Ports per switch (32 × 400 GbE for a 12.8 Tb/s leaf or spine). */
  radix: number;
  rateGbps: number;
  /** Jumbo frames, as RoCE fabrics run them. */
  mtu: number;
}

/**
 * An Ethernet leaf–spine: leaf ports 1..hostsPerLeaf face hosts, port hostsPerLeaf+s goes to spine s;
 * spine port l faces leaf l. Every leaf reaches every other through each spine: the ECMP set.
 */
export function leafSpine(options: LeafSpineOptions): Fabric {
  const { name, spineCount, leafCount, hostsPerLeaf, radix, rateGbps, mtu } = options;
  if (hostsPerLeaf + spineCount > radix) {
    throw new Error(`leaf switch needs ${hostsPerLeaf + spineCount} ports but the radix is ${radix}`);
  }
  if (leafCount > radix) throw new Error(`spine switch needs ${leafCount} ports but the radix is ${radix}`);
  const b = new FabricBuilder(name, 'ethernet');
  const link = { fabricType: 'ethernet', mtu } as const;
  for (let l = 0; l < leafCount; l++) {
    for (let h = 0; h < hostsPerLeaf; h++) {
      const g = l * hostsPerLeaf + h;
      b.addNode({ name: `host${g + 1}`, type: 'host', guid: generatedGuid(0, g), portCount: 1 });
    }
  }
  for (let l = 0; l < leafCount; l++) {
    b.addNode({ name: `leaf${l + 1}`, type: 'switch', guid: generatedGuid(1, l), portCount: radix, tier: 1 });
  }
  for (let s = 0; s < spineCount; s++) {
    const guid = generatedGuid(1, leafCount + s);
    b.addNode({ name: `spine${s + 1}`, type: 'switch', guid, portCount: radix, tier: 2 });
  }
  for (let l = 0; l < leafCount; l++) {
    for (let h = 0; h < hostsPerLeaf; h++) {
      const host = `host${l * hostsPerLeaf + h + 1}`;
      b.connect(host, 1, `leaf${l + 1}`, h + 1, rateGbps, 'host', link);
    }
    for (let s = 0; s < spineCount; s++) {
      b.connect(`leaf${l + 1}`, hostsPerLeaf + s + 1, `spine${s + 1}`, l + 1, rateGbps, 'isl', link);
    }
  }
  return b.build();
}
