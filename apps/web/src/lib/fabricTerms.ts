import type { FabricType } from '@fabscope/contracts';
import { onePer } from './onePer.ts';

/** Each network's words: LIDs, GUIDs and PM categories exist on Omni-Path and InfiniBand, not on Ethernet. */
export interface FabricTerms {
  name: string;
  /** The host's adapter: HFI (Omni-Path), HCA (InfiniBand), NIC (Ethernet). */
  adapter: string;
  hasLids: boolean;
  hasGuids: boolean;
  /** The counter of time a sender was held back (credit wait; PFC pause on Ethernet), or null where there is none. */
  waitCounter: string | null;
  /** Whether the network's ports have performance-management error categories (integrity, congestion …). */
  pmCategories: boolean;
  /** A link rate as that world writes it: "100 Gb/s" on a fabric, "40 GbE" on Ethernet. */
  rate: (gbps: number) => string;
}

const gbps = (rate: number): string => `${Number(rate.toFixed(1))} Gb/s`;

const TERMS: Record<FabricType, FabricTerms> = {
  omnipath: {
    name: 'Omni-Path',
    adapter: 'HFI',
    hasLids: true,
    hasGuids: true,
    waitCounter: 'XmitWait',
    pmCategories: true,
    rate: gbps,
  },
  infiniband: {
    name: 'InfiniBand',
    adapter: 'HCA',
    hasLids: true,
    hasGuids: true,
    waitCounter: 'XmitWait',
    pmCategories: true,
    rate: gbps,
  },
  ethernet: {
    name: 'Ethernet',
    adapter: 'NIC',
    hasLids: false,
    hasGuids: false,
    // docs/metrics.md, "Lossless Ethernet": a port's wait is its PFC pause time, where the source reads it.
    waitCounter: 'PFC pause',
    pmCategories: false,
    rate: (rate) => `${Number(rate.toFixed(1))} GbE`,
  },
};

export function fabricTerms(type: FabricType | string): FabricTerms {
  return TERMS[type as FabricType] ?? { ...TERMS.omnipath, name: type };
}

type Typed = { fabricType: FabricType; links: readonly { fabricType?: FabricType }[] };

// Read once per topology: the header asks on every stream message.
/** The network types a fabric's cables belong to, the fabric's own first. */
export const networkTypes = onePer((topology: Typed): readonly FabricType[] => {
  const types = new Set<FabricType>([topology.fabricType]);
  for (const link of topology.links) if (link.fabricType) types.add(link.fabricType);
  // A mixed fabric declared as one type whose cables all say another is that other type only.
  if (
    topology.links.length > 0 &&
    topology.links.every((l) => l.fabricType && l.fabricType !== topology.fabricType)
  )
    types.delete(topology.fabricType);
  return [...types];
});

/** Cables on a network without PM categories, with the network's name. */
export function unmeasuredCables(topology: {
  fabricType: FabricType;
  links: readonly { id: string; fabricType?: FabricType }[];
}): ReadonlyMap<string, string> {
  const out = new Map<string, string>();
  for (const link of topology.links) {
    const terms = fabricTerms(link.fabricType ?? topology.fabricType);
    if (!terms.pmCategories) out.set(link.id, terms.name);
  }
  return out;
}

/** True when some network of the fabric has the feature (e.g. XmitWait on its IB half). */
export function anyNetworkHas(
  types: readonly FabricType[],
  feature: 'hasLids' | 'hasGuids' | 'waitCounter',
): boolean {
  return types.some((t) => Boolean(fabricTerms(t)[feature]));
}
