import type { TimeRange } from '../lib/time-params.ts';
import type { HistoryKept, LinkSeries, TimeQueries } from './time-queries.ts';

/** One drawing's time queries (a topology the API drew), in force from `fromMs`. */
export interface DrawingQueries {
  fromMs: number;
  queries: TimeQueries;
  /** The direction ids of that drawing. */
  ids: { has(id: string): boolean };
}

/**
 * Time questions over the drawings (topology-live/drawn-fabric.ts), oldest first: an instant goes to the one in force;
 * a range is split where a drawing begins, each part asked of its own, with no points for directions absent then.
 */
export function queriesAcrossDrawings(drawings: readonly DrawingQueries[]): TimeQueries {
  const last = drawings.at(-1);
  if (!last) throw new Error('no drawing');
  if (drawings.length === 1) return last.queries;
  const at = (timeMs: number) => {
    let found = drawings[0] as DrawingQueries;
    for (const d of drawings) if (d.fromMs <= timeMs) found = d;
    return found;
  };
  /** The parts of a range each drawing answers: the points of the range from its start on. */
  const parts = (range: TimeRange) => {
    const out: { drawing: DrawingQueries; range: TimeRange }[] = [];
    drawings.forEach((drawing, i) => {
      const next = drawings[i + 1];
      const startMs = i === 0 ? Number.NEGATIVE_INFINITY : drawing.fromMs;
      const endMs = next ? next.fromMs : Number.POSITIVE_INFINITY;
      // The first and last points of the range's grid in [startMs, endMs).
      const first = Math.max(0, Math.ceil((startMs - range.fromMs) / range.stepMs));
      const lastPoint = Math.floor((Math.min(range.toMs, endMs - 1) - range.fromMs) / range.stepMs);
      if (!Number.isFinite(first) || lastPoint < first) return;
      out.push({
        drawing,
        range: {
          fromMs: range.fromMs + first * range.stepMs,
          toMs: range.fromMs + lastPoint * range.stepMs,
          stepMs: range.stepMs,
        },
      });
    });
    return out;
  };
  const newest = last.queries;
  return {
    resolutionMs: last.queries.resolutionMs,
    // The newest drawing's store holds the history of the older ones too.
    ...(newest.kept ? { kept: () => (newest.kept as () => HistoryKept)() } : {}),
    frameAt: (timeMs, signal) => at(timeMs).queries.frameAt(timeMs, signal),
    linksAt: (timeMs, signal) => at(timeMs).queries.linksAt(timeMs, signal),
    summaryAt: (timeMs, signal) => at(timeMs).queries.summaryAt(timeMs, signal),
    async summaryRange(range, signal) {
      const answers = await Promise.all(
        parts(range).map((p) => p.drawing.queries.summaryRange(p.range, signal)),
      );
      return answers.flat();
    },
    async linkRange(ids, range, signal) {
      const series = new Map<string, LinkSeries>(ids.map((id) => [id, { id, points: [] }]));
      for (const part of parts(range)) {
        const known = ids.filter((id) => part.drawing.ids.has(id));
        if (known.length === 0) continue;
        for (const s of await part.drawing.queries.linkRange(known, part.range, signal))
          series.get(s.id)?.points.push(...s.points);
      }
      return [...series.values()];
    },
    async events(fromMs, toMs, signal) {
      const answers = await Promise.all(
        drawings.map((d, i) => {
          const endMs = drawings[i + 1]?.fromMs ?? Number.POSITIVE_INFINITY;
          if (!d.queries.events || (i > 0 && d.fromMs > toMs) || endMs <= fromMs) return [];
          return d.queries.events(Math.max(fromMs, i > 0 ? d.fromMs : fromMs), Math.min(toMs, endMs), signal);
        }),
      );
      return answers.flat();
    },
  };
}
