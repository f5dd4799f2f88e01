import type { LinkDirectionState } from '@fabscope/contracts';
import type { CompactSnapshot } from '../../api/types.ts';
import { formatPercent, formatPerSecond } from '../../lib/format.ts';
import { CATEGORY_LABELS, crossedCategories, ofThreshold } from '../../lib/linkHealth.ts';

/** What a heatmap cell half shows beside its utilization: its XmitWait share and its errors. */

type ErrorEntry = readonly [errorsPerSecond: number, integrity: number | null];

/** The compact stream's error tuples by channel, made once per message. */
const errorsByChannel = new WeakMap<object, Map<number, ErrorEntry>>();
function errorLookup(errors: CompactSnapshot['errors']): Map<number, ErrorEntry> {
  let found = errorsByChannel.get(errors);
  if (!found) {
    found = new Map(errors.map(([c, eps, integrity]) => [c, [eps, integrity] as const]));
    errorsByChannel.set(errors, found);
  }
  return found;
}

/** The parts of a compact message the evidence reads; wait as decoded (NaN unknown) or as sent (null). */
export interface EvidenceSource {
  waitFraction: ArrayLike<number | null>;
  errors: CompactSnapshot['errors'];
  errorsUnknown: number;
  /** The stream's worst directions per category, as objects: where PM categories can be read. */
  top?: readonly LinkDirectionState[];
}

const topById = new WeakMap<object, Map<string, LinkDirectionState>>();
function topLookup(top: readonly LinkDirectionState[]): Map<string, LinkDirectionState> {
  let found = topById.get(top);
  if (!found) {
    found = new Map(top.map((l) => [l.id, l]));
    topById.set(top, found);
  }
  return found;
}

/** PM categories at 75 % of their threshold or more, worst first, of the directions the stream ranks. */
function categoryText(ids: readonly string[], top: readonly LinkDirectionState[] | undefined): string | null {
  if (!top || ids.length === 0) return null;
  const lookup = topLookup(top);
  const worst = new Map<string, number>();
  for (const id of ids) {
    const sample = lookup.get(id);
    if (!sample) continue;
    // Integrity is read from the errors tuple for every channel; the rest only for ranked directions.
    for (const { category, value } of crossedCategories(sample, 0.75))
      if (category !== 'integrity') worst.set(category, Math.max(worst.get(category) ?? 0, value));
  }
  if (worst.size === 0) return null;
  return [...worst]
    .sort((a, b) => b[1] - a[1])
    .map(([c, v]) => `${CATEGORY_LABELS[c as keyof typeof CATEGORY_LABELS]} ${ofThreshold(v)}`)
    .join(' · ');
}

export interface DirectionEvidence {
  /** "Wait 66.7 %" (the largest over trunks), "Wait —" when no trunk's is known. */
  wait: string;
  /** "errors 2.0/s · Integrity 120 %" (of its threshold), "no errors", or "errors —" when their counters are unknown. */
  errors: string;
  /** Other PM categories near or past their threshold, e.g. "Congestion 150 %"; null when none is known to be. */
  categories: string | null;
}

/** Wait and errors of one direction of a cell over its trunks; unknown is "—", never 0. */
export function directionEvidence(
  channels: readonly number[],
  snapshot: EvidenceSource,
  ids: readonly string[] = [],
): DirectionEvidence {
  let wait: number | null = null;
  for (const c of channels) {
    const w = snapshot.waitFraction[c];
    if (typeof w === 'number' && Number.isFinite(w)) wait = wait === null ? w : Math.max(wait, w);
  }
  const lookup = errorLookup(snapshot.errors);
  let rate: number | null = null;
  let integrity: number | null = null;
  for (const c of channels) {
    const entry = lookup.get(c);
    if (!entry) continue;
    rate = (rate ?? 0) + entry[0];
    if (entry[1] !== null) integrity = Math.max(integrity ?? 0, entry[1]);
  }
  return {
    wait: `Wait ${formatPercent(wait)}`,
    errors: errorText(rate, integrity, snapshot.errorsUnknown),
    categories: categoryText(ids, snapshot.top),
  };
}

function errorText(rate: number | null, integrity: number | null, unknownChannels: number): string {
  // The stream lists only channels with errors; an unlisted one is error-free only when every channel is known.
  if (rate === null) return unknownChannels > 0 ? 'errors —' : 'no errors';
  const parts = [`errors ${formatPerSecond(rate)}/s`];
  if (integrity !== null) parts.push(`${CATEGORY_LABELS.integrity} ${ofThreshold(integrity)}`);
  return parts.join(' · ');
}
