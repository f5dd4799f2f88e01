import { PORT_GAUGES } from '@fabscope/contracts/metrics';

/**
 * What the port search box asks for: `edge1/4` (a node's port), `edge1` (a node: its ports),
 * `0x0002c903000a1b2c` (a GUID), `12` or `lid:12` (a LID). The node part goes to the API as
 * `/port?node=` takes it (its name, NodeDescription, GUID or `lid:N`), which says when there is
 * no such node.
 */
export interface PortTarget {
  node: string;
  port?: number;
}

export function parsePortTarget(text: string): PortTarget | null {
  const t = text.trim();
  if (t === '') return null;
  if (/^\d{1,5}$/.test(t)) return { node: `lid:${Number(t)}` };
  const slash = t.lastIndexOf('/');
  if (slash > 0 && /^\d{1,3}$/.test(t.slice(slash + 1))) {
    const port = Number(t.slice(slash + 1));
    if (port <= 255) return { node: t.slice(0, slash), port };
  }
  return { node: t };
}

/** The URL form of a target (`?port=edge1/4`), read back by parsePortTarget. */
export function portTargetText(target: PortTarget): string {
  return target.port === undefined ? target.node : `${target.node}/${target.port}`;
}

/** A port's `errors` fields that are values, not counters: shown as they are, not as a rate. */
export const PORT_GAUGE_FIELDS: readonly string[] = Object.keys(PORT_GAUGES);

export function isPortGauge(field: string): boolean {
  return PORT_GAUGE_FIELDS.includes(field);
}
