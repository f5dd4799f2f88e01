import type { LinkDirectionState } from '@fabscope/contracts';
import { type LinkFrame, statesOf } from './lib/frame.ts';
import type { Sampler } from './sampler.ts';

/** What a direction measured of lossless Ethernet: its sender paused (PFC received) and its egress' ECN marks. */
export type LosslessSignals = Pick<LinkDirectionState, 'id' | 'from' | 'to' | 'transmitWaitFraction'> & {
  errors: Pick<LinkDirectionState['errors'], 'markFecn'>;
};

/** The pause and ECN marks measured at one instant, as victims are named from them. */
export interface MeasuredLossless {
  /** Per paused direction: the ECN-marking egress (its buffer full) the pause spread from. */
  readonly origins: ReadonlyMap<string, string>;
  /** Per switch egress: its ECN marks a second; null where not measured. */
  readonly marks: ReadonlyMap<string, number | null>;
}

/**
 * Where each measured pause comes from: a paused direction's receiver holds it back because a buffer behind it is
 * full, and a full egress marks ECN, so the origin is the most-marking egress nearest downstream (over paused
 * directions, as PFC spreads hop by hop), never one back towards the paused sender. Host egresses mark nothing
 * (their queues are the NIC's): only switches' count.
 */
export function measuredLossless(
  states: readonly LosslessSignals[],
  isSwitch: (node: string) => boolean,
): MeasuredLossless {
  const marks = new Map<string, number | null>();
  const leaving = new Map<string, LosslessSignals[]>();
  for (const s of states) {
    if (!isSwitch(s.from.node)) continue;
    marks.set(s.id, s.errors.markFecn ?? null);
    const out = leaving.get(s.from.node);
    if (out) out.push(s);
    else leaving.set(s.from.node, [s]);
  }
  const marking = (s: LosslessSignals) => (marks.get(s.id) ?? 0) > 0;
  const paused = (s: LosslessSignals) => (s.transmitWaitFraction ?? 0) > 0;
  const origins = new Map<string, string>();
  for (const d of states) {
    if (!paused(d)) continue;
    const visited = new Set([d.from.node, d.to.node]);
    let frontier = [d.to.node];
    while (frontier.length > 0 && !origins.has(d.id)) {
      const ahead = frontier
        .flatMap((node) => leaving.get(node) ?? [])
        .filter((e) => !visited.has(e.to.node));
      const full = ahead.filter(marking).sort((a, b) => (marks.get(b.id) ?? 0) - (marks.get(a.id) ?? 0));
      if (full[0]) origins.set(d.id, full[0].id);
      frontier = ahead.filter(paused).map((e) => e.to.node);
      for (const node of frontier) visited.add(node);
    }
  }
  return { origins, marks };
}

/**
 * The full egress a flow is a victim of: it crosses a paused direction and no marking egress (it is not one of the
 * flows the buffer is full of). Undefined when it is no victim, or when a switch egress on its path was not measured
 * (unknown is not "not full").
 */
export function measuredVictimOf(path: readonly string[], measured: MeasuredLossless): string | undefined {
  let origin: string | undefined;
  for (const id of path) {
    const marks = measured.marks.get(id);
    if (marks === null) return undefined;
    if (marks !== undefined && marks > 0) return undefined;
    origin ??= measured.origins.get(id);
  }
  return origin;
}

const perFrame = new WeakMap<LinkFrame, MeasuredLossless>();

/** The pause and marks of a tick's frame, made once per frame. */
export function measuredAt(frame: LinkFrame): MeasuredLossless {
  let measured = perFrame.get(frame);
  if (!measured) {
    const nodes = frame.index.fabric.nodeByName;
    measured = measuredLossless(statesOf(frame), (node) => nodes.get(node)?.type === 'switch');
    perFrame.set(frame, measured);
  }
  return measured;
}

/**
 * Flows with their victims named from the live tick's measured pause and ECN marks, for a fabric whose counters
 * are the switches' own (SNMP): a victim named by whoever sent the flows (the emulator) is replaced by what was measured.
 */
export function victimsFromTicks(sampler: Pick<Sampler, 'current'>) {
  return async <F extends { path: string[]; victimOf?: string }>(flows: F[]): Promise<F[]> => {
    const measured = measuredAt((await sampler.current()).frame);
    return flows.map((flow) => {
      const { victimOf: _told, ...rest } = flow;
      const victimOf = measuredVictimOf(flow.path, measured);
      return (victimOf === undefined ? rest : { ...rest, victimOf }) as F;
    });
  };
}
