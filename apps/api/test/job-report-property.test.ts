import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { jobFabricReport } from '../src/jobs/report/job-fabric-report.ts';
import { type Episode, episode, episodeArb } from './job-report/episodes.ts';

/** Whether the report put the true cause first: the culprit job and its direction, or the faulty direction. */
function rankedFirst(e: Episode): boolean {
  const report = jobFabricReport(e.input);
  if (e.culprit)
    return (
      report.culprits[0]?.job === e.culprit.job &&
      report.culprits[0]?.direction === e.culprit.direction &&
      report.directions[0]?.id === e.culprit.direction
    );
  if (e.faulty) return sameCause(e, report.directions[0]?.id) && report.verdict.cause !== 'none';
  return report.verdict.text.startsWith('no fabric cause found');
}

const RUNS = 40;

/** The faulty direction, or for a flap either direction of its link (a link goes down both ways). */
function sameCause(e: Episode, id: string | undefined): boolean {
  if (id === undefined || e.faulty === null) return false;
  return e.kind === 'flap' ? e.input.linkOf(id) === e.input.linkOf(e.faulty) : id === e.faulty;
}

describe("a job's fabric report on generated episodes of a fat tree under static routing", () => {
  it('ranks the true culprit job and direction (or the faulty direction) first in ≥ 90 % of the cases', () => {
    const cases = fc.sample(episodeArb(['incast', 'permutation', 'collision', 'errors', 'flap', 'clean']), {
      numRuns: 120,
      seed: 42,
    });
    const withCause = cases.filter((e) => e.culprit || e.faulty || e.kind === 'clean');
    expect(withCause.length).toBeGreaterThanOrEqual(100);
    const hits = withCause.filter(rankedFirst).length;
    expect(hits / withCause.length).toBeGreaterThanOrEqual(0.9);
  });

  it('never names as culprit a job that shares no direction with the victim', () => {
    fc.assert(
      fc.property(episodeArb(['incast', 'permutation', 'collision', 'errors', 'flap', 'clean']), (e) => {
        const report = jobFabricReport(e.input);
        const own = new Set(e.input.own.flatMap((f) => f.path));
        for (const c of report.culprits) {
          expect(own.has(c.direction)).toBe(true);
          const theirs = e.input.others.filter((f) => f.job === c.job);
          expect(theirs.some((f) => f.path.includes(c.direction))).toBe(true);
        }
      }),
      { numRuns: RUNS },
    );
  });

  it('an incast or permutation crossing the victim: that job and direction first, the verdict names both', () => {
    fc.assert(
      fc.property(episodeArb(['incast', 'permutation']), (e) => {
        fc.pre(e.culprit !== null);
        const report = jobFabricReport(e.input);
        expect(report.culprits[0]).toMatchObject({ job: 'culprit', direction: e.culprit?.direction });
        expect(report.verdict.cause).toBe('congestion');
        expect(report.verdict.text).toContain(`job culprit's traffic carried`);
        expect(report.verdict.text).toContain((e.culprit?.direction ?? '').replace('->', ' → '));
        expect(report.evidence[0]?.direction).toBe(e.culprit?.direction);
        // The culprit slowed the victim: the victim is its victim too, seen from its side.
        expect(report.victims.map((v) => v.job)).toContain('culprit');
      }),
      { numRuns: RUNS },
    );
  });

  it('a routing collision of two statically routed jobs: the other job on the shared ISL, by flows', () => {
    fc.assert(
      fc.property(episodeArb(['collision']), (e) => {
        fc.pre(e.culprit !== null);
        const report = jobFabricReport(e.input);
        expect(report.routes.source).toBe('computed');
        expect(report.culprits[0]).toMatchObject({ job: 'culprit', direction: e.culprit?.direction });
        const shared = report.directions.find((d) => d.id === e.culprit?.direction);
        expect(shared?.users.find((u) => u.job === 'culprit')?.share).toBeGreaterThan(0);
      }),
      { numRuns: RUNS },
    );
  });

  it('the hop after the bottleneck runs as full but does not queue: the bottleneck is still named', () => {
    fc.assert(
      fc.property(
        episodeArb(['incast', 'permutation', 'collision']),
        fc.double({ min: 0, max: 0.01 }),
        (e, more) => {
          fc.pre(e.culprit !== null);
          const hot = e.input.history.find((c) => c.id === e.culprit?.direction);
          const after = e.input.history.find((c) => c.id !== e.culprit?.direction);
          fc.pre(hot !== undefined && after !== undefined);
          // As full as the bottleneck, a little busier even, but with no XmitWait of its own.
          hot?.utilization.forEach((u, i) => {
            (after as typeof hot).utilization[i] = Math.min(1, u + more);
            (after as typeof hot).transmitWaitFraction[i] = 0;
          });
          const report = jobFabricReport(e.input);
          expect(report.directions[0]?.id).toBe(e.culprit?.direction);
          expect(report.verdict.text).toContain((e.culprit?.direction ?? '').replace('->', ' → '));
        },
      ),
      { numRuns: RUNS },
    );
  });

  it('a link erroring or flapping under one job: that direction first, said as errors or link state, no culprit', () => {
    fc.assert(
      fc.property(episodeArb(['errors', 'flap']), (e) => {
        const report = jobFabricReport(e.input);
        expect(sameCause(e, report.directions[0]?.id)).toBe(true);
        expect(report.verdict.cause).toBe(e.kind === 'errors' ? 'errors' : 'link-state');
        expect(report.culprits).toEqual([]);
        expect(sameCause(e, report.evidence[0]?.direction)).toBe(true);
      }),
      { numRuns: RUNS },
    );
  });

  it('a clean job on a busy fabric: "no fabric cause found", no culprit, bystanders shown as users only', () => {
    fc.assert(
      fc.property(episodeArb(['clean']), (e) => {
        const report = jobFabricReport(e.input);
        expect(report.verdict.cause).toBe('none');
        expect(report.verdict.text).toMatch(/^no fabric cause found for job victim/);
        expect(report.culprits).toEqual([]);
        expect(report.victims).toEqual([]);
        expect(report.evidence).toEqual([]);
      }),
      { numRuns: RUNS },
    );
  });

  it("collection gaps on the job's ports and of the whole collection are listed; others' are not", () => {
    const e = episode('clean', 11, 120);
    const port = (e.input.own[0]?.path[1] ?? '').split('->')[0] as string;
    const at = e.input.window.fromMs + 30_000;
    const report = jobFabricReport({
      ...e.input,
      events: [
        {
          timeMs: at,
          kind: 'collection-gap',
          subject: port,
          severity: 'warning',
          detail: 'no fresh reading',
        },
        {
          timeMs: at + 1000,
          kind: 'collection-gap',
          subject: 'elsewhere/9',
          severity: 'warning',
          detail: 'x',
        },
        { timeMs: at + 2000, kind: 'collection', subject: 'fabric', severity: 'warning', detail: 'no data' },
        {
          timeMs: e.input.window.toMs + 1000,
          kind: 'collection',
          subject: 'fabric',
          detail: 'after the window',
        },
      ],
    });
    expect(report.unknowns.gapsTotal).toBe(2);
    expect(report.unknowns.gaps.map((g) => g.subject)).toEqual([port, 'fabric']);
  });

  it('unknown samples stay unknown: they count in unknownSeconds, never as calm time', () => {
    const e = episode('clean', 7, 300);
    const report = jobFabricReport(e.input);
    const nulls = Math.max(
      ...e.input.history.map((h) => h.utilization.filter((u) => Number.isNaN(u)).length),
    );
    expect(nulls).toBeGreaterThan(0);
    expect(report.unknowns.unknownSeconds).toBe(nulls);
    for (const d of report.directions) expect(d.knownSeconds).toBeLessThanOrEqual(300);
  });
});
