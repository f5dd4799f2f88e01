import { interfaceNamed, type SwitchReading } from './snmp-tables.ts';

/** One end of a cable as LLDP names it: the switch, and its interface when that switch was read. */
export interface LldpEnd {
  switchName: string;
  /** ifName of the port; LLDP's port id when the switch was not read or no interface matched. */
  portName: string;
  /** The port's place in its switch's interfaces (1-based), when the switch was read and the port matched. */
  portNumber: number | null;
}

/** A cable found through LLDP: `both` when each end reported the other, else only `a` saw `b`. */
export interface LldpLink {
  a: LldpEnd;
  b: LldpEnd;
  seenFrom: 'both' | 'one-end';
}

function endKey(e: LldpEnd): string {
  return `${e.switchName}\u0000${e.portName}`;
}

/** The far end a neighbour entry names: a read switch's interface matched by port id, then port description. */
export function farEnd(
  readings: ReadonlyMap<string, SwitchReading>,
  sysName: string,
  portId: string,
  portDesc: string,
): LldpEnd {
  const far = readings.get(sysName);
  const match = far
    ? (interfaceNamed(far.interfaces, portId) ?? interfaceNamed(far.interfaces, portDesc))
    : undefined;
  if (!far || !match) return { switchName: sysName, portName: portId, portNumber: null };
  return { switchName: sysName, portName: match.name, portNumber: far.interfaces.indexOf(match) + 1 };
}

/**
 * The fabric's cables from every switch's LLDP neighbours: the two reports of one cable become one link seen
 * from both ends; a cable reported by one end only (the other not read, or not running LLDP) says so.
 */
export function lldpLinks(readings: readonly SwitchReading[]): LldpLink[] {
  const byName = new Map(readings.map((r) => [r.name, r]));
  const links = new Map<string, LldpLink>();
  for (const r of readings) {
    for (const n of r.neighbours) {
      const local = n.localIfName === null ? undefined : r.interfaces.find((i) => i.name === n.localIfName);
      const a: LldpEnd = local
        ? { switchName: r.name, portName: local.name, portNumber: r.interfaces.indexOf(local) + 1 }
        : { switchName: r.name, portName: `lldp-port-${n.localPortNum}`, portNumber: null };
      const b = farEnd(byName, n.sysName, n.portId, n.portDesc);
      const reverse = links.get(`${endKey(b)}\u0001${endKey(a)}`);
      if (reverse) {
        reverse.seenFrom = 'both';
        continue;
      }
      links.set(`${endKey(a)}\u0001${endKey(b)}`, { a, b, seenFrom: 'one-end' });
    }
  }
  return [...links.values()];
}
