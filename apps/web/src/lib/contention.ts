import type { Analysis, TrafficRequest } from '../api/types.ts';

/**
 * The contention check's pure parts: the pattern the form builds (the API's `pattern` grammar:
 * `pairs:A-B,C-D`, `shift:K`, `permutation[:SEED]`, `all-to-all`, `incast:HOST`, `bisection`),
 * the traffic request that starts exactly the analysed flows, and the rows the panel shows.
 */

export type PatternKind = 'pairs' | 'shift' | 'permutation' | 'all-to-all' | 'incast' | 'bisection';
export const PATTERN_KINDS: readonly PatternKind[] = [
  'pairs',
  'shift',
  'permutation',
  'all-to-all',
  'incast',
  'bisection',
];

/** What the form holds: a kind and its one argument (pairs list, K, seed, or host). */
export interface PatternDraft {
  kind: PatternKind;
  arg: string;
}

/** The argument each kind takes, for the form's label and placeholder; null when none. */
export const PATTERN_ARG: Record<PatternKind, { label: string; placeholder: string } | null> = {
  pairs: { label: 'Pairs', placeholder: 'nodeA-nodeC,nodeB-nodeD' },
  shift: { label: 'K', placeholder: '1' },
  permutation: { label: 'Seed', placeholder: '1' },
  'all-to-all': null,
  incast: { label: 'Receiver', placeholder: 'nodeA' },
  bisection: null,
};

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

/** Most pairs one traffic request may carry (the API's limit). */
const MAX_PAIRS = 100_000;

/**
 * The POST /api/v1/traffic body that runs the analysed flows, so the measurement is comparable to
 * the prediction. all-to-all and incast mean the same in both places. For pairs, shift,
 * permutation and bisection the analysed flows themselves are sent as pairs: both sides draw them
 * with the one pattern engine (@fabscope/topology), but the analysis ranges over every host and
 * the emulator over the hosts of its main network, which differ on routed fabrics. When the
 * analysis cut its flow list, the pattern is sent by name (the same pairs on one-network fabrics).
 */
export function trafficFor(draft: PatternDraft, analysis: Analysis): TrafficRequest | null {
  if (draft.kind === 'all-to-all') return { pattern: 'all-to-all' };
  if (draft.kind === 'incast') {
    const to = analysis.flows[0]?.to ?? draft.arg.trim();
    return to === '' ? null : { pattern: 'incast', to };
  }
  const complete = !analysis.truncated && analysis.flows.length > 0 && analysis.flows.length <= MAX_PAIRS;
  if (complete) return { pattern: 'pairs', pairs: analysis.flows.map((f) => [f.from, f.to]) };
  const n = Number(draft.arg.trim() || '1');
  if (draft.kind === 'shift' && Number.isInteger(n)) return { pattern: 'shift', k: n };
  if (draft.kind === 'permutation' && Number.isInteger(n)) return { pattern: 'permutation', seed: n };
  if (draft.kind === 'bisection') return { pattern: 'bisection' };
  return null;
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
    .sort((a, b) => b.flows - a.flows || b.usedGbps - a.usedGbps || (a.link < b.link ? -1 : 1))
    .slice(0, limit)
    .map((l) => ({
      link: l.link,
      flows: l.flows,
      usedGbps: l.usedGbps,
      capacityGbps: l.capacityGbps,
      pairs: (pairsOf.get(l.link) ?? []).map(([a, b]) => `${a} → ${b}`),
    }));
}

/** Gb/s (what the analysis reports) → bytes/s (what the dashboard shows, as GB/s). */
export function gbpsToBytesPerSecond(gbps: number): number {
  return (gbps * 1e9) / 8;
}
