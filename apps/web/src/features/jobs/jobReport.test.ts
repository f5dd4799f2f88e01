import type { ReportDirection } from '@fabscope/contracts';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseLinkSelection } from '../../lib/linkSelection.ts';
import {
  evidenceUrl,
  type FigureStats,
  hotDirections,
  secondsOfWindowText,
  statsText,
  unknownLines,
  usersText,
  windowSeconds,
} from './jobReport.ts';
import { affectedText } from './jobsAffected.ts';

const stats = (mean: number | null, p95: number | null, max: number | null): FigureStats => ({
  mean,
  p95,
  max,
  secondsAbove: [],
});

const direction = (id: string, over: Partial<ReportDirection> = {}): ReportDirection => ({
  id,
  kind: 'isl',
  jobFlows: 1,
  jobShare: 0.5,
  utilization: stats(0.2, 0.3, 0.4),
  transmitWait: stats(0, 0, 0),
  knownSeconds: 60,
  behindSeconds: 0,
  errors: { raised: 0, erroredSeconds: 0 },
  state: { flaps: 0, downSeconds: 0 },
  users: [],
  ...over,
});

describe('the job report, as the page writes it', () => {
  it('measures the window, and writes a time with its share of it', () => {
    const window = {
      from: '2026-11-29T10:00:00.000Z',
      to: '2026-11-29T10:02:00.000Z',
      stepSeconds: 5,
      asked: false,
    };
    expect(windowSeconds({ window })).toBe(120);
    expect(windowSeconds({ window: { ...window, to: window.from } })).toBe(0);
    expect(secondsOfWindowText(90, 120)).toBe('1 min 30 s (75 %)');
    expect(secondsOfWindowText(3, 0)).toBe('3.0 s');
  });

  it('writes mean · p95 · max with unknown as —, never as 0', () => {
    expect(statsText(stats(0.41, 0.884, 0.97))).toBe('41 % · 88 % · 97 %');
    expect(statsText(stats(null, null, null))).toBe('— · — · —');
  });

  it('names other users, traffic of no job as such, and counts the rest', () => {
    const users = [
      { job: '1002', share: 0.61, flows: 4 },
      { job: null, share: 0.05, flows: 1 },
      { job: '7', share: 0.02, flows: 1 },
      { job: '8', share: 0.01, flows: 1 },
    ];
    expect(usersText(users)).toBe('1002 61 % · (no job) 5 % · 7 2 % · +1');
    expect(usersText([])).toBe('—');
  });

  it('keeps as hot exactly the directions with time behind, errors or link state, in the report’s order', () => {
    const dirs = [
      direction('a->b', { behindSeconds: 10 }),
      direction('c->d'),
      direction('e->f', { errors: { raised: 1, erroredSeconds: 0 } }),
      direction('g->h', { state: { flaps: 2, downSeconds: 4 } }),
    ];
    const { hot, calm } = hotDirections(dirs);
    expect(hot.map((d) => d.id)).toEqual(['a->b', 'e->f', 'g->h']);
    expect(calm).toBe(1);
  });

  it('says what is unknown, and nothing when all was known', () => {
    const window = { from: '2026-11-29T10:00:00Z', to: '2026-11-29T10:01:40Z', stepSeconds: 5, asked: false };
    const job = { hosts: 4 } as Parameters<typeof unknownLines>[0]['job'];
    const known = {
      hostsNotOnFabric: [],
      hostsNotOnFabricTotal: 0,
      unknownSeconds: 0,
      gaps: [],
      gapsTotal: 0,
      notes: [],
    };
    expect(unknownLines({ window, job, unknowns: known })).toEqual([]);
    const lines = unknownLines({
      window,
      job,
      unknowns: {
        ...known,
        hostsNotOnFabric: ['gpu9'],
        hostsNotOnFabricTotal: 2,
        unknownSeconds: 25,
        gaps: [{ time: '2026-11-29T10:00:30Z', subject: 'fabric', what: 'collection stopped' }],
        gapsTotal: 1,
        notes: ['pattern assumed'],
      },
    });
    expect(lines).toEqual([
      '2 of its 4 hosts not on this fabric: gpu9 and 1 more',
      'Up to 25 s (25 %) of the window without a sample on one of its directions',
      '1 collection gap',
      'pattern assumed',
    ]);
  });
});

describe('evidenceUrl', () => {
  const id = fc
    .tuple(fc.stringMatching(/^[a-z][a-z0-9]{0,8}$/), fc.integer({ min: 1, max: 64 }))
    .map(([n, p]) => `${n}/${p}`);
  const directionId = fc.tuple(id, id).map(([a, b]) => `${a}->${b}`);

  it('travels to the instant on the direction, opens its history first and keeps the rest of the view', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1_600_000_000_000, max: 2_000_000_000_000 }),
        directionId,
        fc.array(directionId, { maxLength: 3 }),
        (ms, dir, open) => {
          const before = new URL('http://127.0.0.1:8080/?tool=jobs&job=1001&range=1h');
          if (open.length > 0) before.searchParams.set('links', open.join(','));
          const after = new URL(
            evidenceUrl(before.toString(), { time: new Date(ms).toISOString(), direction: dir }),
          );
          expect(Date.parse(after.searchParams.get('at') ?? '')).toBe(ms);
          expect(after.searchParams.get('tool')).toBe('link');
          expect(after.searchParams.get('link')).toBe(dir);
          expect(parseLinkSelection(after.searchParams.get('links'))[0]).toBe(dir);
          expect(after.searchParams.get('job')).toBe('1001');
          expect(after.searchParams.get('range')).toBe('1h');
        },
      ),
    );
  });
});

describe('affectedText', () => {
  it('says how a job meets an alarm, in the singular where it is one', () => {
    expect(
      affectedText({ id: '1002', name: 'train', user: 'alice', crossing: { directions: 2, flows: 5 } }),
    ).toBe('#1002 · alice · 2 directions, 5 flows');
    expect(
      affectedText({ id: 'seed', name: 'seed', user: null, crossing: { directions: 1, flows: 1 } }),
    ).toBe('1 direction, 1 flow');
  });
});
