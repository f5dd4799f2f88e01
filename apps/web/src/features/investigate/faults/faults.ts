import type { FaultInfo, FaultRequest, LinkDirectionState, LinkKind, Topology } from '@fabscope/contracts';
import { naturalCompare } from '@fabscope/contracts/names';

/** The fault panel's pure parts: link choices, fault descriptions and how to undo one. */

export interface LinkChoice {
  /** Link id `a/port--b/port`, as POST /faults takes it. */
  id: string;
  /** `edge1/4 ↔ core2/1` */
  label: string;
  kind: LinkKind;
}

/** `a/port--b/port` → `a/port ↔ b/port`. */
export function linkLabel(linkId: string): string {
  return linkId.replace('--', ' ↔ ');
}

/** The links faults go on: ISLs, or host links on a fabric without any, in natural order. */
export function islChoices(topology: Topology | null): LinkChoice[] {
  if (!topology) return [];
  const kind: LinkKind = topology.links.some((l) => l.kind === 'isl') ? 'isl' : 'host';
  return topology.links
    .filter((l) => l.kind === kind)
    .map((l) => ({ id: l.id, label: linkLabel(l.id), kind }))
    .sort((a, b) => naturalCompare(a.id, b.id));
}

const TYPE_LABEL: Record<string, string> = {
  'link-down': 'link down',
  flap: 'flapping',
  'symbol-errors': 'symbol errors',
  'switch-down': 'switch down',
};

/** What a fault is, in a few words: `link down`, `flapping every 2 s (down 1 s)`, `symbol errors 10/s`. */
export function faultSummary(fault: FaultInfo): string {
  const label = TYPE_LABEL[fault.type] ?? fault.type;
  if (fault.type === 'flap' && fault.period !== undefined) {
    const down = fault.downFor === undefined ? '' : ` (down ${fault.downFor} s)`;
    return `${label} every ${fault.period} s${down}`;
  }
  if (fault.type === 'symbol-errors' && fault.rate !== undefined) return `${label} ${fault.rate}/s`;
  return label;
}

/** Where the fault is, readable: a link as `a/p ↔ b/p`, a node or `node/port` as is. */
export function faultTarget(fault: FaultInfo): string {
  return fault.target.includes('--') ? linkLabel(fault.target) : fault.target;
}

/** The request that repairs one active fault, or null when it has no single undo. */
export function undoFault(fault: FaultInfo): FaultRequest | null {
  switch (fault.type) {
    case 'link-down':
    case 'flap':
      return { type: 'link-up', link: fault.target };
    case 'symbol-errors': {
      if (fault.target.includes('--')) return { type: 'symbol-errors', link: fault.target, rate: 0 };
      const slash = fault.target.lastIndexOf('/');
      const port = Number(fault.target.slice(slash + 1));
      if (slash < 0 || !Number.isInteger(port)) return null;
      return { type: 'symbol-errors', node: fault.target.slice(0, slash), port, rate: 0 };
    }
    case 'switch-down':
      return { type: 'switch-up', node: fault.target };
    default:
      return null;
  }
}

/** Links (ids) the counters report down in a full stream message, in natural order. */
export function downLinkIds(links: readonly LinkDirectionState[] | null): string[] {
  if (!links) return [];
  const ids = new Set<string>();
  for (const l of links) if (l.linkUp === false) ids.add(l.linkId);
  return [...ids].sort(naturalCompare);
}

/** Links (ids) down in a compact stream message: channel c is link ⌊c/2⌋ of the topology. */
export function downLinkIdsCompact(topology: Topology, linkDown: readonly number[] | undefined): string[] {
  const ids = new Set<string>();
  for (const c of linkDown ?? []) {
    const link = topology.links[c >> 1];
    if (link) ids.add(link.id);
  }
  return [...ids].sort(naturalCompare);
}
