// Names the wire and the computation share, without TypeBox so a computing package need not load the schemas.

/** The Omni-Path performance manager's six port categories, in the order every answer lists them. */
export const CATEGORY_NAMES = [
  'integrity',
  'congestion',
  'smaCongestion',
  'bubble',
  'security',
  'routing',
] as const;
export type CategoryName = (typeof CATEGORY_NAMES)[number];

/** The traffic patterns the API starts (`POST /traffic`'s `pattern`), in the order a form offers them. */
export const TRAFFIC_PATTERNS = [
  'pairs',
  'shift',
  'permutation',
  'all-to-all',
  'incast',
  'bisection',
  'iperf',
  'storage',
] as const;
export type TrafficPattern = (typeof TRAFFIC_PATTERNS)[number];

/** The networks fabscope draws: a fabric's type, and a cable's where it differs. */
export const FABRIC_TYPES = ['omnipath', 'infiniband', 'ethernet'] as const;
export type FabricType = (typeof FABRIC_TYPES)[number];

export const NODE_TYPES = ['host', 'switch', 'router'] as const;
export type NodeType = (typeof NODE_TYPES)[number];

/** `isl`: switch to switch; `host`: a host's or router's cable. */
export const LINK_KINDS = ['host', 'isl'] as const;
export type LinkKind = (typeof LINK_KINDS)[number];

/** What changed between two topology versions (`GET /topology/changes`). */
export const TOPOLOGY_CHANGE_KINDS = [
  'node-appeared',
  'node-disappeared',
  'node-changed',
  'link-added',
  'link-removed',
  'link-moved',
  'link-rate-changed',
] as const;

/** How the cabled fabric differs from its design (`GET /topology/drift`). */
export const DRIFT_KINDS = [
  'missing-link',
  'extra-link',
  'miswired',
  'wrong-rate',
  'missing-node',
  'extra-node',
] as const;
export type DriftKind = (typeof DRIFT_KINDS)[number];
