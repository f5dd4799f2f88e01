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

/** A port of a local InfiniBand adapter, a subnet watched through it: FABSCOPE_IB_PORTS lists them `mlx5_0:1`. */
export interface IbLocalPort {
  /** The kernel's RDMA device name (`mlx5_0`). */
  ca: string;
  /** Its port number, from 1. */
  port: number;
}

/** `mlx5_0:1`, as FABSCOPE_IB_PORTS writes a port. */
export function ibPortName(port: IbLocalPort): string {
  return `${port.ca}:${port.port}`;
}

/** The infiniband-diags arguments that pick a port (`-C mlx5_0 -P 1`); none for the tools' default port. */
export function ibPortArgs(port: IbLocalPort | undefined): string[] {
  return port ? ['-C', port.ca, '-P', String(port.port)] : [];
}

/** `mlx5_0:1` → the port; undefined when the text is not a device name, a colon and a port 1..254. */
export function readIbPortName(text: string): IbLocalPort | undefined {
  const match = /^([A-Za-z0-9][A-Za-z0-9_.-]{0,63}):([0-9]{1,3})$/.exec(text.trim());
  const port = Number(match?.[2]);
  if (!match || port < 1 || port > 254) return undefined;
  return { ca: match[1] as string, port };
}

/**
 * Names in the order people count them (`core1/2` before `core1/10`), one order for the API, the
 * dashboard and `fabscope top`: runs of digits compare as numbers, letters without case; strings
 * equal by that rule (`node01`, `Node1`) fall back to code-unit order, so the order is total.
 */
export function naturalCompare(a: string, b: string): number {
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    const ca = a.charCodeAt(i);
    const cb = b.charCodeAt(j);
    if (isDigit(ca) && isDigit(cb)) {
      const runA = digitRun(a, i);
      const runB = digitRun(b, j);
      const byNumber = compareDigits(a, runA, b, runB);
      if (byNumber !== 0) return byNumber;
      i = runA.end;
      j = runB.end;
      continue;
    }
    const byChar = lowerCode(ca) - lowerCode(cb);
    if (byChar !== 0) return byChar;
    i++;
    j++;
  }
  const byLength = a.length - i - (b.length - j);
  if (byLength !== 0) return byLength;
  return a < b ? -1 : a > b ? 1 : 0;
}

const isDigit = (code: number): boolean => code >= 48 && code <= 57;
const lowerCode = (code: number): number => (code >= 65 && code <= 90 ? code + 32 : code);

/** A run of digits from `at`: where its value starts (leading zeros skipped) and where it ends. */
function digitRun(text: string, at: number): { start: number; end: number } {
  let start = at;
  while (start < text.length && text.charCodeAt(start) === 48) start++;
  let end = start;
  while (end < text.length && isDigit(text.charCodeAt(end))) end++;
  return { start, end };
}

function compareDigits(a: string, runA: { start: number; end: number }, b: string, runB: typeof runA) {
  const lengths = runA.end - runA.start - (runB.end - runB.start);
  if (lengths !== 0) return lengths;
  for (let k = 0; k < runA.end - runA.start; k++) {
    const d = a.charCodeAt(runA.start + k) - b.charCodeAt(runB.start + k);
    if (d !== 0) return d;
  }
  return 0;
}

/** One end of a cable as its written form needs it: the node, the port, and the node's tier (0: a host). */
export interface CableEnd {
  node: string;
  port: number;
  tier: number;
}

/**
 * A cable's one written form, whatever order a generator, a dump or a tool listed its ends in:
 * `node/port--node/port`, the end nearer the hosts first (`nodeA/1--edge1/1`, `edge1/3--core1/1`);
 * ends on one tier in natural order (`edge1/5--edge2/5`). docs/architecture.md, "Names".
 */
export function cableId(x: CableEnd, y: CableEnd): string {
  const a = `${x.node}/${x.port}`;
  const b = `${y.node}/${y.port}`;
  const xFirst = x.tier !== y.tier ? x.tier < y.tier : naturalCompare(a, b) <= 0;
  return xFirst ? `${a}--${b}` : `${b}--${a}`;
}

/** A link direction's id (`edge1/4->core2/1`) as people read it: `edge1/4 → core2/1`. */
export function directionText(id: string): string {
  const arrow = id.indexOf('->');
  return arrow < 0 ? id : `${id.slice(0, arrow)} → ${id.slice(arrow + 2)}`;
}

/** Whether `text` names the cable `id` (a cable's written form), its ends in either order as a tool may list them. */
export function namesCable(id: string, text: string): boolean {
  if (text === id) return true;
  // The `--` after the first end's port number: a node name may hold `--` itself.
  const cut = /\/\d+--/.exec(text);
  if (!cut) return false;
  const at = cut.index + cut[0].length - 2;
  return `${text.slice(at + 2)}--${text.slice(0, at)}` === id;
}

/** Every direction and cable id in a line of text as people read them: `a/1 → b/1`, `a/1 ↔ b/1`. */
export function linkIdsText(text: string): string {
  return text
    .replace(/([^\s,;()]+\/\d+)->([^\s,;()]+\/\d+)/g, '$1 → $2')
    .replace(/([^\s,;()]+\/\d+)--([^\s,;()]+\/\d+)/g, '$1 ↔ $2');
}

/** Digits a host name's number may have and still be counted exactly (beyond: the name is kept whole). */
const HOSTLIST_DIGITS = 15;

/**
 * Host names as Slurm writes a host list (`scontrol show hostlist`): `node[001-032,040],login1`. Each
 * name's last run of digits is its number; names alike around it share one bracket of ranges, each range
 * padded as its lower bound (`[08-12]`), as Slurm expands it. Sorted in natural order, duplicates once.
 */
export function compressHostList(names: readonly string[]): string {
  const groups = new Map<
    string,
    { head: string; tail: string; numbers: { value: number; text: string }[] }
  >();
  const whole: string[] = [];
  for (const name of new Set(names)) {
    const match = /^(.*?)(\d+)(\D*)$/.exec(name);
    if (!match || (match[2] as string).length > HOSTLIST_DIGITS || /[[\],\s]/.test(name)) {
      whole.push(name);
      continue;
    }
    const [, head = '', text = '', tail = ''] = match;
    const key = `${head}\u0000${tail}`;
    const group = groups.get(key) ?? { head, tail, numbers: [] };
    group.numbers.push({ value: Number(text), text });
    groups.set(key, group);
  }
  const items: { first: string; text: string }[] = whole.map((name) => ({ first: name, text: name }));
  for (const { head, tail, numbers } of groups.values()) {
    numbers.sort((a, b) => a.value - b.value || a.text.length - b.text.length);
    const ranges = hostRanges(numbers);
    const text =
      numbers.length === 1 ? `${head}${numbers[0]?.text}${tail}` : `${head}[${ranges.join(',')}]${tail}`;
    items.push({ first: `${head}${numbers[0]?.text}${tail}`, text });
  }
  return items
    .sort((a, b) => naturalCompare(a.first, b.first))
    .map((i) => i.text)
    .join(',');
}

/** Runs of consecutive numbers that one padding writes (`008`, `009`, `010`: `008-010`), as range texts. */
function hostRanges(numbers: readonly { value: number; text: string }[]): string[] {
  const ranges: string[] = [];
  let start = 0;
  for (let i = 1; i <= numbers.length; i++) {
    const first = numbers[start] as { value: number; text: string };
    const prev = numbers[i - 1] as { value: number; text: string };
    const next = numbers[i];
    const joins =
      next !== undefined &&
      next.value === prev.value + 1 &&
      String(next.value).padStart(first.text.length, '0') === next.text;
    if (joins) continue;
    ranges.push(start === i - 1 ? first.text : `${first.text}-${prev.text}`);
    start = i;
  }
  return ranges;
}
