import { findNode } from '../model/find-node.ts';
import type { Fabric, FabricNode } from '../model/model.ts';
import { mulberry32, randomIndex } from './random.ts';

export type TrafficPattern =
  | { kind: 'pairs'; pairs: [string, string][] }
  | { kind: 'shift'; k: number }
  | { kind: 'permutation'; seed: number }
  | { kind: 'all-to-all' }
  | { kind: 'incast'; host: string }
  | { kind: 'bisection' };

/** A pattern that does not parse or does not fit the fabric; the message says why. */
export class PatternError extends Error {
  override name = 'PatternError';
}

/** A pattern of the right form naming a host the fabric does not have. */
export class UnknownHostError extends PatternError {
  override name = 'UnknownHostError';
}

/** At most this many flows (all-to-all grows as N²). */
export const MAX_FLOWS = 2_000_000;

/** `pairs:A-B,C-D` (or `A->B`) · `shift:K` · `permutation[:SEED]` · `all-to-all` · `incast:HOST` · `bisection`. */
export function parsePattern(text: string, fabric?: Fabric): TrafficPattern {
  const [kind = '', ...rest] = text.trim().split(':');
  const arg = rest.join(':');
  switch (kind) {
    case 'pairs': {
      if (!arg) throw new PatternError('pairs needs a list: pairs:A-B,C-D');
      const pairs = arg.split(',').map((p): [string, string] => {
        const parts = p.includes('->') ? p.split('->') : splitPair(p, fabric);
        if (parts.length !== 2 || !parts[0] || !parts[1]) {
          throw new PatternError(`pair "${p}" is not FROM-TO (write FROM->TO when names contain "-")`);
        }
        return [parts[0].trim(), parts[1].trim()];
      });
      return { kind: 'pairs', pairs };
    }
    case 'shift': {
      const k = Number(arg);
      if (!arg || !Number.isInteger(k) || k < 1)
        throw new PatternError(`shift needs a positive integer: shift:K, got "${arg}"`);
      return { kind: 'shift', k };
    }
    case 'permutation': {
      const seed = arg === '' ? 1 : Number(arg);
      if (!Number.isInteger(seed) || seed < 0)
        throw new PatternError(`permutation seed must be a non-negative integer, got "${arg}"`);
      return { kind: 'permutation', seed };
    }
    case 'all-to-all':
    case 'bisection':
      if (arg) throw new PatternError(`${kind} takes no argument`);
      return { kind };
    case 'incast':
      if (!arg) throw new PatternError('incast needs a destination host: incast:HOST');
      return { kind: 'incast', host: arg };
    default:
      throw new PatternError(
        `unknown pattern "${text}"; expected pairs:A-B,C-D, shift:K, permutation[:SEED], all-to-all, incast:HOST or bisection`,
      );
  }
}

function splitPair(p: string, fabric: Fabric | undefined): string[] {
  const parts = p.split('-');
  if (parts.length <= 2 || !fabric) return parts;
  // Names with dashes (`opa-node-eth-node`): take the one split whose halves are both nodes.
  const known = (name: string) => {
    try {
      findNode(fabric, name.trim());
      return true;
    } catch {
      return false;
    }
  };
  const splits: string[][] = [];
  for (let i = 1; i < parts.length; i++) {
    const a = parts.slice(0, i).join('-');
    const b = parts.slice(i).join('-');
    if (known(a) && known(b)) splits.push([a, b]);
  }
  if (splits.length === 1) return splits[0] as string[];
  throw new UnknownHostError(`pair "${p}" is ambiguous or names unknown nodes; write FROM->TO`);
}

/** The hosts a pattern ranges over: every host, ordered by LID (the order D-mod-K routing works in). */
export function patternHosts(fabric: Fabric): FabricNode[] {
  return fabric.nodes.filter((n) => n.type === 'host').sort((a, b) => a.lid - b.lid || a.index - b.index);
}

/** A host a pattern names, found as everywhere (name, GUID or lid:N); a PatternError otherwise. */
export function patternEndpoint(fabric: Fabric, name: string): FabricNode {
  let node: FabricNode;
  try {
    node = findNode(fabric, name);
  } catch {
    throw new UnknownHostError(`unknown node "${name}"`);
  }
  if (node.type === 'switch') throw new PatternError(`"${name}" is a switch, not a host`);
  return node;
}

/** Flows as [source node index, destination node index]. */
export function patternFlows(fabric: Fabric, pattern: TrafficPattern): [number, number][] {
  const hosts = patternHosts(fabric);
  const flows: [number, number][] = [];
  switch (pattern.kind) {
    case 'pairs':
      for (const [a, b] of pattern.pairs) {
        const from = patternEndpoint(fabric, a);
        const to = patternEndpoint(fabric, b);
        if (from === to) throw new PatternError(`"${a}" is paired with itself`);
        flows.push([from.index, to.index]);
      }
      break;
    case 'incast': {
      const to = patternEndpoint(fabric, pattern.host);
      for (const h of hosts) if (h !== to) flows.push([h.index, to.index]);
      break;
    }
    default:
      for (const [from, to] of collectivePairs(hosts, pattern)) flows.push([from.index, to.index]);
  }
  return flows;
}

/** The patterns defined by the order of the hosts they range over alone. */
export type CollectivePattern = Extract<
  TrafficPattern,
  { kind: 'shift' | 'permutation' | 'all-to-all' | 'bisection' }
>;

/** A collective pattern's [sender, receiver] pairs, shared by the CLI, API and emulator. */
export function collectivePairs<T>(hosts: readonly T[], pattern: CollectivePattern): [T, T][] {
  const n = hosts.length;
  const at = (i: number) => hosts[i] as T;
  const pairs: [T, T][] = [];
  switch (pattern.kind) {
    case 'shift': {
      if (!Number.isInteger(pattern.k) || pattern.k % n === 0)
        throw new PatternError(`shift:${pattern.k} maps each of the ${n} hosts to itself`);
      for (let i = 0; i < n; i++) pairs.push([at(i), at((((i + pattern.k) % n) + n) % n)]);
      break;
    }
    case 'permutation': {
      if (n < 2) throw new PatternError('a permutation needs at least 2 hosts');
      const target = derangement(n, pattern.seed);
      for (let i = 0; i < n; i++) pairs.push([at(i), at(target[i] as number)]);
      break;
    }
    case 'all-to-all':
      if (n < 2) throw new PatternError('all-to-all needs at least 2 hosts');
      if (n * (n - 1) > MAX_FLOWS) {
        throw new PatternError(`all-to-all on ${n} hosts is ${n * (n - 1)} flows; at most ${MAX_FLOWS}`);
      }
      for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) if (i !== j) pairs.push([at(i), at(j)]);
      break;
    case 'bisection': {
      const half = Math.floor(n / 2);
      if (half === 0) throw new PatternError('bisection needs at least 2 hosts');
      for (let i = 0; i < half; i++) pairs.push([at(i), at(i + half)], [at(i + half), at(i)]);
      break;
    }
  }
  return pairs;
}

/** A seeded derangement: Fisher–Yates, then each fixed point swapped with its successor. */
export function derangement(n: number, seed: number): Int32Array {
  const random = mulberry32(seed);
  const perm = Int32Array.from({ length: n }, (_, i) => i);
  const swap = (i: number, j: number) => {
    const t = perm[i] as number;
    perm[i] = perm[j] as number;
    perm[j] = t;
  };
  for (let i = n - 1; i > 0; i--) swap(i, randomIndex(random, i + 1));
  for (let i = 0; i < n; i++) if (perm[i] === i) swap(i, (i + 1) % n);
  return perm;
}
