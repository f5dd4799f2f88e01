import type { Analysis } from '@fabscope/contracts';
import { naturalCompare } from '@fabscope/contracts/names';
import { formatGbpsRate, type RateUnit } from '@fabscope/contracts/units';
import type { TrafficRequest } from '../../../api/types.ts';

/** The contention check's pure parts: the pattern the form builds, the traffic request, the rows. */

/** The patterns the contention check offers: the analysis' own (`fabscope analyze`), not iperf or storage. */
export type PatternKind = Exclude<TrafficRequest['pattern'], 'iperf' | 'storage'>;
const OFFERED: Record<PatternKind, true> = {
  pairs: true,
  shift: true,
  permutation: true,
  'all-to-all': true,
  incast: true,
  bisection: true,
};
export const PATTERN_KINDS = Object.keys(OFFERED) as PatternKind[];

/** What the form holds: a kind and its one argument (pairs list, K, seed, or host). */
export interface PatternDraft {
  kind: PatternKind;
  arg: string;
}

export type PatternResult = { ok: true; pattern: string } | { ok: false; message: string };

/** The API pattern text of a draft, or why it is not one yet. */
export function patternText(draft: PatternDraft): PatternResult {
  const arg = draft.arg.trim().replace(/\s*,\s*/g, ',');
  switch (draft.kind) {
    case 'pairs':
      if (arg === '') return { ok: false, message: 'List the pairs: nodeA-nodeC,nodeB-nodeD' };
      return { ok: true, pattern: `pairs:${arg}` };
    case 'shift': {
      const k = Number(arg);
      if (arg === '' || !Number.isInteger(k) || k < 1)
        return { ok: false, message: 'K must be a positive integer' };
      return { ok: true, pattern: `shift:${k}` };
    }
    case 'permutation': {
      if (arg === '') return { ok: true, pattern: 'permutation' };
      const seed = Number(arg);
      if (!Number.isInteger(seed) || seed < 0)
        return { ok: false, message: 'The seed must be a non-negative integer' };
      return { ok: true, pattern: `permutation:${seed}` };
    }
    case 'incast':
      if (arg === '') return { ok: false, message: 'Name the receiving host' };
      return { ok: true, pattern: `incast:${arg}` };
    default:
      return { ok: true, pattern: draft.kind };
  }
}

/** The form state of a pattern text (from the URL); unknown kinds give the default draft. */
export function draftOf(pattern: string | null, fallback: PatternDraft): PatternDraft {
  if (!pattern) return fallback;
  const colon = pattern.indexOf(':');
  const kind = (colon < 0 ? pattern : pattern.slice(0, colon)) as PatternKind;
  if (!PATTERN_KINDS.includes(kind)) return fallback;
  return { kind, arg: colon < 0 ? '' : pattern.slice(colon + 1) };
}

/** The seed-002 pairs as a draft. */
export function pairsDraft(pairs: readonly (readonly [string, string])[]): PatternDraft {
  return { kind: 'pairs', arg: pairs.map(([a, b]) => `${a}-${b}`).join(',') };
}

/** Most pairs sent as a list, well within the API's 1 MiB body; beyond, the pattern goes by name. */
export const MAX_PAIRS_SENT = 20_000;

/** The job the contention check's traffic runs as. */
export const CHECK_JOB = 'contention-check';

/**
 * The traffic body that runs exactly the analysed flows: as pairs when the answer lists them all,
 * else the pattern by name over the same hosts, which the one pattern engine draws identically.
 */
export function trafficFor(draft: PatternDraft, analysis: Analysis): TrafficRequest | null {
  const complete = analysis.flows.length > 0 && analysis.flows.length === analysis.routedCount;
  const job = { job: CHECK_JOB };
  if (complete && analysis.flows.length <= MAX_PAIRS_SENT) {
    return { pattern: 'pairs', pairs: analysis.flows.map((f) => [f.from, f.to]), ...job };
  }
  const over = analysis.hosts ? { hosts: analysis.hosts, ...job } : job;
  const n = Number(draft.arg.trim() || '1');
  switch (draft.kind) {
    case 'all-to-all':
      return { pattern: 'all-to-all', ...over };
    case 'incast': {
      const to = analysis.flows[0]?.to ?? draft.arg.trim();
      if (to === '') return null;
      return analysis.hosts
        ? { pattern: 'incast', to, from: analysis.hosts.filter((h) => h !== to), ...job }
        : { pattern: 'incast', to, ...job };
    }
    case 'shift':
      return Number.isInteger(n) ? { pattern: 'shift', k: n, ...over } : null;
    case 'permutation':
      return Number.isInteger(n) ? { pattern: 'permutation', seed: n, ...over } : null;
    case 'bisection':
      return { pattern: 'bisection', ...over };
    default:
      return null;
  }
}

/** Measured bytes/s per `from→to` of the running flows (several streams of one pair add up). */
export function measuredByPair(
  flows: readonly { from: string; to: string; bytesPerSecond: number }[],
): Map<string, number> {
  const byPair = new Map<string, number>();
  for (const f of flows) {
    const key = `${f.from}\u0000${f.to}`;
    byPair.set(key, (byPair.get(key) ?? 0) + f.bytesPerSecond);
  }
  return byPair;
}

export const pairKey = (from: string, to: string): string => `${from}\u0000${to}`;

/** What the panel says when no ISL is shared: endpoint contention still limits all-to-all. */
export function noIslContentionText(analysis: Analysis, unit: RateUnit): string {
  if (analysis.maxLinkLoad <= 1) {
    return 'No link direction carries more than one flow: no contention under static routing.';
  }
  return `No ISL direction is shared, but up to ${analysis.maxLinkLoad} flows share one host port: the flows are limited by their endpoints (slowest ${formatGbpsRate(analysis.minFlowGbps, unit)}), not by the fabric.`;
}

export interface CollisionRow {
  /** Channel id `from/port->to/port`. */
  link: string;
  flows: number;
  usedGbps: number;
  capacityGbps: number;
  /** The flows sharing it, `from → to`. */
  pairs: string[];
}

/** ISL directions carrying two or more flows, most loaded first, with the colliding pairs. */
export function collisionRows(analysis: Analysis, limit = 10): CollisionRow[] {
  const pairsOf = new Map(analysis.collisions.map((c) => [c.link, c.pairs]));
  return analysis.links
    .filter((l) => l.kind === 'isl' && l.flows >= 2)
    .sort((a, b) => b.flows - a.flows || b.usedGbps - a.usedGbps || naturalCompare(a.link, b.link))
    .slice(0, limit)
    .map((l) => ({
      link: l.link,
      flows: l.flows,
      usedGbps: l.usedGbps,
      capacityGbps: l.capacityGbps,
      pairs: (pairsOf.get(l.link) ?? []).map(([a, b]) => `${a} → ${b}`),
    }));
}
