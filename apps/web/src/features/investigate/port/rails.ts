import type { PortReply } from '@fabscope/contracts';

export type Rail = NonNullable<PortReply['rails']>[number];

/** One rail as the host's page lists it: where it goes, its subnet, identity and link. */
export interface RailRow {
  name: string;
  device: string;
  /** Its subnet where several are watched; "—" on one. */
  subnet: string;
  guid: string;
  lid: string;
  /** `leaf01/1 · 4xEDR · up`, one entry per cabled port; "not cabled" when none is. */
  links: string;
}

function linkState(linkUp: boolean | null): string {
  return linkUp === null ? 'state not reported' : linkUp ? 'up' : 'down';
}

/** The rows of a host's rails, in the answer's order (its adapters by name). */
export function railRows(rails: readonly Rail[]): RailRow[] {
  return rails.map((rail) => ({
    name: rail.name,
    device: rail.device,
    subnet: rail.subnet ?? '—',
    guid: rail.guid,
    lid: rail.lid > 0 ? String(rail.lid) : '—',
    links:
      rail.links.length === 0
        ? 'not cabled'
        : rail.links
            .map(
              (l) =>
                `${l.neighbour.node}/${l.neighbour.port} · ${l.widthSpeed ?? `${l.rateGbps} Gb/s`} · ${linkState(l.linkUp)}`,
            )
            .join('; '),
  }));
}
