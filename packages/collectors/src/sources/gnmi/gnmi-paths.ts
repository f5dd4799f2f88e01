import type { GnmiPath, GnmiTypedValue } from './gnmi-proto.ts';

/** One path element: its name and its list keys (`interface[name=Ethernet1]`). */
export interface PathElem {
  name: string;
  key: Record<string, string>;
}

/** What fabscope subscribes to, every interface and queue (no keys: all of them). */
export const SUBSCRIBED_PATHS: readonly string[] = [
  'interfaces/interface/state/counters',
  'interfaces/interface/state/oper-status',
  'interfaces/interface/ethernet/state/port-speed',
  'interfaces/interface/ethernet/state/counters',
  'qos/interfaces/interface/output/queues/queue/state',
  'lldp/interfaces/interface/neighbors/neighbor/state',
];

/** OpenConfig interface leaves read, by their path below `interfaces/interface[name=…]`. */
export const INTERFACE_LEAVES = {
  'state/counters/in-octets': 'inOctets',
  'state/counters/out-octets': 'outOctets',
  'state/counters/in-unicast-pkts': 'inUnicastPkts',
  'state/counters/out-unicast-pkts': 'outUnicastPkts',
  'state/counters/in-errors': 'inErrors',
  'state/counters/out-errors': 'outErrors',
  'state/counters/in-discards': 'inDiscards',
  'state/counters/out-discards': 'outDiscards',
  'ethernet/state/counters/in-mac-pause-frames': 'inPauseFrames',
  'ethernet/state/counters/out-mac-pause-frames': 'outPauseFrames',
  'state/oper-status': 'operStatus',
  'ethernet/state/port-speed': 'portSpeed',
} as const;

/**
 * Queue leaves read below `qos/interfaces/interface[interface-id=…]/output/queues/queue[name=…]/state`.
 * OpenConfig QoS (0.7) has none of these congestion counters; platforms that add them under these
 * names are read, and a port whose platform does not keeps them unknown.
 */
export const QUEUE_LEAVES = {
  'ecn-marked-pkts': 'ecnMarkedPackets',
  'pfc-pause-frames-received': 'pfcPauseReceived',
  'pfc-pause-frames-sent': 'pfcPauseSent',
  'tx-wait': 'transmitWait',
} as const;

/** OpenConfig LLDP neighbour leaves, below `lldp/interfaces/interface[name=…]/neighbors/neighbor[id=…]/state`. */
export const NEIGHBOUR_LEAVES = {
  'system-name': 'systemName',
  'port-id': 'portId',
  'port-description': 'portDescription',
} as const;

export type NeighbourLeaf = (typeof NEIGHBOUR_LEAVES)[keyof typeof NEIGHBOUR_LEAVES];
export type InterfaceLeaf = (typeof INTERFACE_LEAVES)[keyof typeof INTERFACE_LEAVES];
export type QueueLeaf = (typeof QUEUE_LEAVES)[keyof typeof QUEUE_LEAVES];

/** Where an update lands: an interface's leaf, a queue's leaf, or (deletes) a whole interface. */
export type LeafAddress =
  | { kind: 'interface'; interface: string; leaf: InterfaceLeaf }
  | { kind: 'queue'; interface: string; queue: string; leaf: QueueLeaf }
  | { kind: 'neighbour'; interface: string; neighbour: string; leaf: NeighbourLeaf }
  | { kind: 'whole-interface'; interface: string };

/** `name[k=v][k2=v2]` as one element; a `/` inside brackets belongs to the key (`Ethernet1/1`). */
function elemOf(text: string): PathElem {
  const open = text.indexOf('[');
  if (open < 0) return { name: text, key: {} };
  const key: Record<string, string> = {};
  for (const m of text.slice(open).matchAll(/\[([^=\]]+)=((?:\\.|[^\]])*)\]/g)) {
    key[m[1] as string] = (m[2] as string).replace(/\\(.)/g, '$1');
  }
  return { name: text.slice(0, open), key };
}

/** A path's text split into elements at the slashes outside brackets. */
export function parsePathText(text: string): PathElem[] {
  const parts: string[] = [];
  let depth = 0;
  let current = '';
  for (const ch of text) {
    if (ch === '[') depth++;
    if (ch === ']') depth = Math.max(0, depth - 1);
    if (ch === '/' && depth === 0) {
      if (current !== '') parts.push(current);
      current = '';
    } else current += ch;
  }
  if (current !== '') parts.push(current);
  return parts.map(elemOf);
}

/** A decoded path's elements: `elem` when given, else the deprecated `element` strings (the fake target sends these). */
export function pathElems(path: GnmiPath | undefined): PathElem[] {
  if (!path) return [];
  if (path.elem && path.elem.length > 0) {
    return path.elem.map((e) => ({ name: e.name ?? '', key: { ...(e.key ?? {}) } }));
  }
  return (path.element ?? []).flatMap(parsePathText);
}

/** A module prefix is dropped: `openconfig-interfaces:interfaces` is `interfaces`. */
function bare(name: string): string {
  const colon = name.indexOf(':');
  return colon < 0 ? name : name.slice(colon + 1);
}

function keyOf(e: PathElem | undefined, key: string): string | null {
  const value = e?.key[key];
  return value === undefined || value === '' ? null : value;
}

/**
 * Where a full path (prefix and path joined) lands, or a reason it is not a leaf fabscope reads: null
 * for paths outside the subscription's leaves (ignored), a string for a path that is ours but broken.
 */
export function addressOf(elems: PathElem[]): LeafAddress | string | null {
  const names = elems.map((e) => bare(e.name));
  if (names[0] === 'interfaces' && names[1] === 'interface') {
    const name = keyOf(elems[1], 'name');
    if (name === null) return 'interface path without [name=…]';
    if (names.length === 2) return { kind: 'whole-interface', interface: name };
    const rest = names.slice(2).join('/');
    const leaf = INTERFACE_LEAVES[rest as keyof typeof INTERFACE_LEAVES];
    return leaf ? { kind: 'interface', interface: name, leaf } : null;
  }
  const queuePath = ['qos', 'interfaces', 'interface', 'output', 'queues', 'queue', 'state'];
  if (names.length === 8 && queuePath.every((n, i) => names[i] === n)) {
    const name = keyOf(elems[2], 'interface-id');
    const queue = keyOf(elems[5], 'name');
    if (name === null || queue === null) return 'queue path without [interface-id=…] or [name=…]';
    const leaf = QUEUE_LEAVES[names[7] as keyof typeof QUEUE_LEAVES];
    return leaf ? { kind: 'queue', interface: name, queue, leaf } : null;
  }
  const lldpPath = ['lldp', 'interfaces', 'interface', 'neighbors', 'neighbor', 'state'];
  if (names.length === 7 && lldpPath.every((n, i) => names[i] === n)) {
    const name = keyOf(elems[2], 'name');
    const neighbour = keyOf(elems[4], 'id');
    if (name === null || neighbour === null) return 'LLDP path without [name=…] or [id=…]';
    const leaf = NEIGHBOUR_LEAVES[names[6] as keyof typeof NEIGHBOUR_LEAVES];
    return leaf ? { kind: 'neighbour', interface: name, neighbour, leaf } : null;
  }
  return null;
}

/** A JSON value as decoded from json_val / json_ietf_val, or undefined when it is not JSON. */
function jsonOf(bytes: Buffer): unknown {
  try {
    return JSON.parse(bytes.toString('utf8'));
  } catch {
    return undefined;
  }
}

/** The scalar a TypedValue carries (JSON decoded; RFC 7951 writes 64-bit integers as strings). */
export function scalarOf(v: GnmiTypedValue | undefined): unknown {
  if (!v) return undefined;
  if (v.uint_val !== undefined) return BigInt(v.uint_val);
  if (v.int_val !== undefined) return BigInt(v.int_val);
  if (v.string_val !== undefined) return v.string_val;
  if (v.ascii_val !== undefined) return v.ascii_val;
  if (v.bool_val !== undefined) return v.bool_val;
  if (v.double_val !== undefined) return v.double_val;
  if (v.float_val !== undefined) return v.float_val;
  if (v.json_ietf_val !== undefined) return jsonOf(v.json_ietf_val);
  if (v.json_val !== undefined) return jsonOf(v.json_val);
  return undefined;
}

/** A counter64's value, or null when it is not a non-negative integer below 2^64. */
export function counterOf(value: unknown): bigint | null {
  let n: bigint | null = null;
  if (typeof value === 'bigint') n = value;
  else if (typeof value === 'number' && Number.isSafeInteger(value)) n = BigInt(value);
  else if (typeof value === 'string' && /^\d{1,20}$/.test(value)) n = BigInt(value);
  return n !== null && n >= 0n && n < 2n ** 64n ? n : null;
}

const OPER_STATUS = new Set([
  'UP',
  'DOWN',
  'TESTING',
  'UNKNOWN',
  'DORMANT',
  'NOT_PRESENT',
  'LOWER_LAYER_DOWN',
]);

/** oper-status's enumeration value, or null when the text is none of them. */
export function operStatusOf(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const text = bare(value);
  return OPER_STATUS.has(text) ? text : null;
}

/** A port-speed identity (`openconfig-if-ethernet:SPEED_100GB`) in bits/s; NaN for SPEED_UNKNOWN; null when not one. */
export function portSpeedOf(value: unknown): number | null {
  if (typeof value !== 'string') return null;
  const text = bare(value);
  if (text === 'SPEED_UNKNOWN') return Number.NaN;
  const m = /^SPEED_(\d+)(MB|GB)$/.exec(text);
  if (!m) return null;
  return Number(m[1]) * (m[2] === 'GB' ? 1e9 : 1e6);
}

/**
 * A container sent whole as JSON (`…/state/counters` = {"in-octets":"12",…}) as its leaves' paths and
 * values; a scalar is its own single leaf.
 */
export function leavesOf(elems: PathElem[], value: unknown): { elems: PathElem[]; value: unknown }[] {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return [{ elems, value }];
  return Object.entries(value as Record<string, unknown>).flatMap(([name, v]) =>
    leavesOf([...elems, { name, key: {} }], v),
  );
}
