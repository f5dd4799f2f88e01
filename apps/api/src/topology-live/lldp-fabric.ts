import { naturalCompare } from '@fabscope/contracts/names';
import { type Fabric, FabricBuilder } from '@fabscope/topology';

/** A switch as its SNMP agent answered: its interfaces numbered 1.. as the collector numbers its ports. */
export interface LldpSwitch {
  name: string;
  guid: string;
  ports: readonly { number: number; name: string; speedMbps: number | null; up: boolean }[];
}

/** One end of a cable LLDP reported: `port` null when that system was not read (a host) or no port matched. */
export interface LldpCableEnd {
  node: string;
  portName: string;
  port: number | null;
}

/** A cable as the LLDP neighbour tables give it, `both` when each end reported the other. */
export interface LldpCable {
  a: LldpCableEnd;
  b: LldpCableEnd;
  seenFrom: 'both' | 'one-end';
}

/** The fabric LLDP describes, and the reports that could not be placed in it (each says why). */
export interface LldpFabric {
  fabric: Fabric;
  skipped: string[];
}

/** Bounded as the model is: a switch of more ports is refused by name rather than cut short. */
const MAX_PORTS = 254;

function speedGbps(mbps: number | null | undefined): number | null {
  return mbps === null || mbps === undefined ? null : mbps / 1000;
}

/** Switch tiers: 1 where a host hangs, then one more per ISL hop away; all 1 when LLDP named no host. */
function switchTiers(switches: readonly LldpSwitch[], isls: readonly LldpCable[], leaves: Set<string>) {
  const tier = new Map<string, number>();
  const next = new Map<string, string[]>(switches.map((s) => [s.name, []]));
  for (const c of isls) {
    next.get(c.a.node)?.push(c.b.node);
    next.get(c.b.node)?.push(c.a.node);
  }
  let frontier = leaves.size > 0 ? [...leaves] : switches.map((s) => s.name);
  for (const name of frontier) tier.set(name, 1);
  while (frontier.length > 0) {
    const following: string[] = [];
    for (const name of frontier) {
      for (const far of next.get(name) ?? []) {
        if (tier.has(far)) continue;
        tier.set(far, (tier.get(name) as number) + 1);
        following.push(far);
      }
    }
    frontier = following;
  }
  // A switch no ISL reaches from a leaf is an island: drawn at the leaves' tier.
  return (name: string) => tier.get(name) ?? 1;
}

/** Cables sorted into ISLs and host cables; what cannot be placed, with its reason. */
function sortCables(switches: ReadonlyMap<string, LldpSwitch>, cables: readonly LldpCable[]) {
  const isls: LldpCable[] = [];
  const hostCables: { sw: LldpCableEnd; host: LldpCableEnd }[] = [];
  const skipped: string[] = [];
  for (const c of cables) {
    const aRead = switches.has(c.a.node);
    const bRead = switches.has(c.b.node);
    const text = `${c.a.node} ${c.a.portName} – ${c.b.node || '(no name)'} ${c.b.portName}`;
    if (aRead && bRead) {
      if (c.a.port === null || c.b.port === null) skipped.push(`${text}: no interface matches the port id`);
      else isls.push(c);
    } else if (aRead !== bRead) {
      const [sw, host] = aRead ? [c.a, c.b] : [c.b, c.a];
      if (host.node === '') skipped.push(`${text}: the neighbour sends no system name`);
      else if (sw.port === null) skipped.push(`${text}: no interface matches the local port`);
      else hostCables.push({ sw, host });
    }
  }
  return { isls, hostCables, skipped };
}

/**
 * The Ethernet counterpart of ibnetdiscover's fabric: the switches read by SNMP with every interface, cabled as
 * their LLDP neighbours say (an ISL once, though both ends report it), and a host for each system LLDP names
 * that was not read itself. A port reported cabled twice keeps its first cable; the other is skipped, named.
 */
export function lldpFabric(
  name: string,
  switches: readonly LldpSwitch[],
  cables: readonly LldpCable[],
  hostGuid: (hostName: string) => string,
): LldpFabric {
  const byName = new Map(switches.map((s) => [s.name, s]));
  const { isls, hostCables, skipped } = sortCables(byName, cables);
  const tierOf = switchTiers(switches, isls, new Set(hostCables.map((c) => c.sw.node)));
  const b = new FabricBuilder(name, 'ethernet');
  const hostPorts = new Map<string, string[]>();
  for (const { host } of hostCables) {
    const ports = hostPorts.get(host.node) ?? [];
    if (!ports.includes(host.portName)) ports.push(host.portName);
    hostPorts.set(host.node, ports);
  }
  for (const [host, ports] of [...hostPorts].sort(([x], [y]) => naturalCompare(x, y))) {
    ports.sort(naturalCompare);
    b.addNode({
      name: host,
      type: 'host',
      guid: hostGuid(host),
      portCount: Math.min(ports.length, MAX_PORTS),
    });
  }
  for (const s of [...switches].sort((x, y) => naturalCompare(x.name, y.name))) {
    if (s.ports.length > MAX_PORTS)
      throw new Error(`switch "${s.name}": ${s.ports.length} ports, more than ${MAX_PORTS}`);
    b.addNode({
      name: s.name,
      type: 'switch',
      guid: s.guid,
      portCount: Math.max(1, s.ports.length),
      tier: tierOf(s.name),
    });
  }
  const taken = new Set<string>();
  const connect = (
    x: { node: string; port: number },
    y: { node: string; port: number },
    gbps: number,
    why: string,
  ) => {
    const keys = [`${x.node}/${x.port}`, `${y.node}/${y.port}`];
    if (keys.some((k) => taken.has(k))) {
      skipped.push(`${why}: the port is cabled already`);
      return;
    }
    for (const k of keys) taken.add(k);
    b.connect(x.node, x.port, y.node, y.port, gbps);
  };
  const speedOf = (end: LldpCableEnd) =>
    speedGbps(byName.get(end.node)?.ports.find((p) => p.number === end.port)?.speedMbps);
  for (const c of isls) {
    const a = { node: c.a.node, port: c.a.port as number };
    const z = { node: c.b.node, port: c.b.port as number };
    // The slower end's speed: a 400G port cabled to a 100G one runs at 100G.
    const speeds = [speedOf(c.a), speedOf(c.b)].filter((v): v is number => v !== null);
    connect(a, z, speeds.length > 0 ? Math.min(...speeds) : 0, `${a.node}/${a.port} – ${z.node}/${z.port}`);
  }
  for (const { sw, host } of hostCables) {
    const port = (hostPorts.get(host.node) as string[]).indexOf(host.portName) + 1;
    if (port > MAX_PORTS) continue;
    const at = { node: sw.node, port: sw.port as number };
    connect(
      { node: host.node, port },
      at,
      speedOf(sw) ?? 0,
      `${host.node} ${host.portName} – ${at.node}/${at.port}`,
    );
  }
  for (const s of switches) {
    for (const p of s.ports) {
      if (!taken.has(`${s.name}/${p.number}`))
        b.addUncabledPort(s.name, p.number, speedGbps(p.speedMbps) ?? 0);
    }
  }
  return { fabric: b.build(), skipped };
}
