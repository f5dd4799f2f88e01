import type { FabricType, LinkDirectionState } from '@fabscope/contracts';
import { formatRate, type RateUnit } from '@fabscope/contracts/units';
import { fabricTerms } from '../../lib/fabricTerms.ts';
import { formatDirection, formatPercent } from '../../lib/format.ts';
import type { LayoutChannel, LayoutNode } from '../../lib/layout.ts';
import { errorSummary } from '../../lib/linkHealth.ts';
import type { FabricLayout } from './fabricLayout.ts';

/** Where the drawn fat tree puts its marks, and what its hover texts say. */

/** A link direction's hover text. */
export function channelTitle(
  id: string,
  sample: LinkDirectionState | undefined,
  onRoute: boolean,
  unit: RateUnit,
  waitCounter: string | null,
  network: string,
  pmCategories = true,
): string {
  if (!sample) return `${formatDirection(id)}\nno sample`;
  const state = sample.linkUp === false ? ' (link DOWN)' : sample.stale ? ' (stale)' : '';
  const route = onRoute ? '\non the selected route' : '';
  const errors = errorSummary(sample, pmCategories ? null : network);
  const wait = waitCounter
    ? ` · ${waitCounter === 'XmitWait' ? 'wait' : waitCounter} ${formatPercent(sample.transmitWaitFraction)}`
    : '';
  return `${formatDirection(id)}${state}\n${sample.kind} · util ${formatPercent(sample.utilization)} · ${formatRate(sample.bytesPerSecond, unit)}${wait}${errors ? `\n${errors}` : ''}${route}`;
}

export /** A node's hover text: LID and GUID only on networks that have them (not Ethernet). */
function nodeTitle(
  n: LayoutNode,
  fabricType: FabricType,
  ids: { lid: number; guid: string } | undefined,
): string {
  const terms = fabricTerms(n.network ?? fabricType);
  const parts = [`${n.name} (${n.type}${n.mark === 'router' ? '' : `, tier ${n.tier}`})`];
  if (n.network || n.mark === 'router')
    parts.push(n.mark === 'router' ? 'IP router between networks' : terms.name);
  if (ids && terms.hasLids && n.mark !== 'router') parts.push(`LID ${ids.lid}`);
  if (ids && terms.hasGuids && n.mark !== 'router') parts.push(`GUID ${ids.guid}`);
  return parts.join(' · ');
}

/** Where the error mark sits: near the receiving port, whose receive counters count the errors. */
export function receiverPoint(c: LayoutChannel): { x: number; y: number } {
  return { x: c.x1 + (c.x2 - c.x1) * 0.78, y: c.y1 + (c.y2 - c.y1) * 0.78 };
}

/** Where the congestion marker sits: a quarter of the way from the sending (waiting) port. */
export function senderPoint(c: LayoutChannel): { x: number; y: number } {
  return { x: c.x1 + (c.x2 - c.x1) * 0.22, y: c.y1 + (c.y2 - c.y1) * 0.22 };
}

/** A cross on each down cable, on its centre line, 15 % of the cable from the midpoint off the arrowheads. */
export function downMarks(
  layout: FabricLayout,
  samples: ReadonlyMap<string, LinkDirectionState> | null,
): { linkId: string; x: number; y: number }[] {
  const first = new Map<string, LayoutChannel>();
  const marks: { linkId: string; x: number; y: number }[] = [];
  for (const c of layout.channels) {
    if (samples?.get(c.id)?.linkUp !== false) continue;
    const other = first.get(c.linkId);
    if (!other) {
      first.set(c.linkId, c);
      continue;
    }
    marks.push({
      linkId: c.linkId,
      x: (c.mx + other.mx) / 2 + (other.x1 - other.x2) * 0.15,
      y: (c.my + other.my) / 2 + (other.y1 - other.y2) * 0.15,
    });
  }
  return marks;
}
