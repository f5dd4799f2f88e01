import type { LinkDirectionState } from '@fabscope/contracts';
import { naturalCompare } from '@fabscope/contracts/names';
import { buildScenario } from '@fabscope/topology';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CursorError, Listings } from '../src/http/listings.ts';
import { emptyFrame } from '../src/lib/frame.ts';
import { LinkIndex } from '../src/lib/link-index.ts';
import { RankedLinks } from '../src/lib/link-order.ts';

const open = (instant: string, n: number) => async () => ({
  instant,
  rows: Array.from({ length: n }, (_, i) => i),
  extra: null,
});

async function refusal(promise: Promise<unknown>): Promise<CursorError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(CursorError);
  return error as CursorError;
}

describe('Listings: pages of one list, bounded', () => {
  it('pages through the list the first page opened, the last page without next', async () => {
    const listings = new Listings();
    const first = await listings.page('r', { limit: 4 }, open('t1', 10));
    expect(first).toMatchObject({ rows: [0, 1, 2, 3], total: 10, instant: 't1' });
    const second = await listings.page('r', { cursor: first.next, limit: 4 }, open('t2', 99));
    expect(second.rows).toEqual([4, 5, 6, 7]);
    const last = await listings.page('r', { cursor: second.next }, open('t3', 99));
    expect(last.rows).toEqual([8, 9]);
    expect(last.next).toBeUndefined();
    expect(last.instant).toBe('t1');
  });

  it('a list not read for the idle time is gone: 410 naming why', async () => {
    let now = 0;
    const listings = new Listings({ idleMs: 1000, now: () => now });
    const first = await listings.page('r', { limit: 2 }, open('t1', 10));
    now = 999;
    const second = await listings.page('r', { cursor: first.next, limit: 2 }, open('t1', 10));
    now = 999 + 1001;
    const gone = await refusal(listings.page('r', { cursor: second.next }, open('t1', 10)));
    expect(gone.statusCode).toBe(410);
    expect(gone.message).toMatch(/no longer held.*without cursor/);
    expect(listings.size).toBe(0);
  });

  it('holds at most N instants per route, dropping the least recently read, and other routes apart', async () => {
    const listings = new Listings({ instantsPerRoute: 2 });
    // Each instant's rows differ (equal rows are one list: below).
    const a = await listings.page('r', { limit: 1 }, open('a', 3));
    const other = await listings.page('s', { limit: 1 }, open('x', 3));
    const b = await listings.page('r', { limit: 1 }, open('b', 4));
    // `a` read again: now `b` is the least recently read.
    const a2 = await listings.page('r', { cursor: a.next, limit: 1 }, open('?', 0));
    await listings.page('r', { limit: 1 }, open('c', 5));
    expect((await refusal(listings.page('r', { cursor: b.next }, open('?', 0)))).statusCode).toBe(410);
    expect((await listings.page('r', { cursor: a2.next }, open('?', 0))).rows).toEqual([2]);
    expect((await listings.page('s', { cursor: other.next }, open('?', 0))).rows).toEqual([1, 2]);
  });

  it('a first page of a held instant and parameters reuses its list; other parameters open another', async () => {
    const listings = new Listings();
    let opened = 0;
    const counting = async () => {
      opened++;
      return { instant: 't', rows: [1, 2, 3], extra: null };
    };
    await listings.page('r', { sort: 'id', limit: 1 }, counting, 't');
    await listings.page('r', { sort: 'id', limit: 2 }, counting, 't');
    expect(opened).toBe(1);
    await listings.page('r', { sort: 'utilization' }, counting, 't');
    expect(opened).toBe(2);
  });

  it('refuses a cursor of another route, past the end, or with other parameters (400)', async () => {
    const listings = new Listings();
    const first = await listings.page('r', { kind: 'isl', limit: 1 }, open('t', 3));
    const cases = [
      listings.page('s', { cursor: first.next }, open('t', 3)),
      listings.page('r', { cursor: first.next, kind: 'host' }, open('t', 3)),
      listings.page('r', { cursor: `${(first.next as string).split('.')[0]}.zz` }, open('t', 3)),
    ];
    for (const c of cases) expect((await refusal(c)).statusCode).toBe(400);
    // The same parameters again are fine.
    expect((await listings.page('r', { cursor: first.next, kind: 'isl' }, open('t', 3))).rows).toEqual([
      1, 2,
    ]);
  });
});

describe('RankedLinks: a first page selected is the head of the whole order', () => {
  const fabric = buildScenario('fat-tree-1152');
  const index = new LinkIndex(fabric);
  const base = index.channels.map((c) => c.fixed);

  it('slices equal the full sort for any values (ties, unknowns), sort, order and page', () => {
    fc.assert(
      fc.property(
        fc.array(fc.option(fc.constantFrom(0, 0.1, 0.5, 0.858, 1), { nil: null }), {
          minLength: base.length,
          maxLength: base.length,
        }),
        fc.constantFrom('utilization', 'id', 'congestion') as fc.Arbitrary<
          'utilization' | 'id' | 'congestion'
        >,
        fc.constantFrom('asc', 'desc') as fc.Arbitrary<'asc' | 'desc'>,
        fc.integer({ min: 1, max: 600 }),
        (values, sort, order, k) => {
          const links = base.map(
            (fixed, i) =>
              ({
                ...fixed,
                utilization: values[i] ?? null,
                categories: { congestion: values[(i * 7) % values.length] ?? null },
              }) as unknown as LinkDirectionState,
          );
          const reference = [...links].sort((a, b) => {
            const key = (l: LinkDirectionState) =>
              sort === 'id' ? null : sort === 'congestion' ? l.categories.congestion : l.utilization;
            if (sort === 'id') return naturalCompare(a.id, b.id) * (order === 'asc' ? 1 : -1);
            const ka = key(a);
            const kb = key(b);
            if ((ka === null) !== (kb === null)) return ka === null ? 1 : -1;
            if (ka !== null && kb !== null && ka !== kb) return (ka - kb) * (order === 'asc' ? 1 : -1);
            return naturalCompare(a.id, b.id);
          });
          const frame = emptyFrame(index, 0, null, new Map());
          links.forEach((l, c) => {
            frame.utilization[c] = l.utilization ?? Number.NaN;
            frame.categories.congestion[c] = l.categories.congestion ?? Number.NaN;
          });
          const channels = Int32Array.from(links, (_, c) => c);
          const ranked = new RankedLinks(index, { frame, channels }, sort, order);
          // A first page selected, then the next one (which ranks the whole list).
          expect(ranked.slice(0, k).map((l) => l.id)).toEqual(reference.slice(0, k).map((l) => l.id));
          expect(ranked.slice(k, 2 * k).map((l) => l.id)).toEqual(reference.slice(k, 2 * k).map((l) => l.id));
        },
      ),
      { numRuns: 40 },
    );
  });
});

describe('Listings: first pages naming one reuse key share one read', () => {
  it('concurrent first pages wait for the same read; invalidate makes the next one read anew', async () => {
    const listings = new Listings();
    let reads = 0;
    let release: () => void = () => {};
    const slow = async () => {
      reads++;
      await new Promise<void>((resolve) => {
        release = resolve;
      });
      // The first row differs per read: a read of the same rows would be the list held (below).
      return { instant: `read ${reads}`, rows: [reads, 2, 3], extra: null };
    };
    const pages = [1, 2, 3].map(() => listings.page('traffic', { limit: 1 }, slow, 'interval 7'));
    await new Promise((resolve) => setTimeout(resolve, 10));
    release();
    const answers = await Promise.all(pages);
    expect(reads).toBe(1);
    expect(new Set(answers.map((a) => a.instant))).toEqual(new Set(['read 1']));
    // A cursor of the shared list still reads on after an invalidation; a first page reads anew.
    listings.invalidate('traffic');
    const next = listings.page('traffic', { cursor: answers[0]?.next }, slow, 'interval 7');
    expect((await next).rows).toEqual([2, 3]);
    const fresh = listings.page('traffic', { limit: 1 }, slow, 'interval 7');
    await new Promise((resolve) => setTimeout(resolve, 10));
    release();
    expect((await fresh).instant).toBe('read 2');
  });
});

describe('Listings: a list read as rows is named by its content', () => {
  it('the same rows read again are the list held: the same next cursor (an unchanged list is the same answer)', async () => {
    const listings = new Listings();
    let rows = [1, 2, 3];
    const read = (instant: string) => async () => ({ instant, rows, extra: { source: 'x' } });
    const first = await listings.page('jobs', { limit: 2 }, read('t1'));
    const again = await listings.page('jobs', { limit: 2 }, read('t2'));
    expect(again).toEqual(first);
    expect(listings.size).toBe(1);
    // Another route, other parameters, other extra or other rows: another list.
    const names = [
      (await listings.page('events', { limit: 2 }, read('t3'))).next,
      (await listings.page('jobs', { limit: 2, job: 'a' }, read('t3'))).next,
      (await listings.page('jobs', { limit: 2 }, async () => ({ instant: 't3', rows, extra: null }))).next,
    ];
    rows = [1, 2, 4];
    const changed = await listings.page('jobs', { limit: 2 }, read('t4'));
    names.push(changed.next);
    expect(new Set([first.next, ...names].map((n) => n?.split('.')[0])).size).toBe(5);
    // Both lists read on from their own rows.
    expect((await listings.page('jobs', { cursor: first.next }, read('?'))).rows).toEqual([3]);
    expect((await listings.page('jobs', { cursor: changed.next }, read('?'))).rows).toEqual([4]);
  });

  it('fast-check: two reads get one cursor exactly when their rows and extra are equal; a walk gives every row once', async () => {
    const row = fc.oneof(
      fc.integer({ min: 0, max: 3 }),
      fc.record({ id: fc.constantFrom('a', 'b'), n: fc.nat(2) }),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.array(row, { minLength: 2, maxLength: 12 }),
        fc.array(row, { minLength: 2, maxLength: 12 }),
        fc.integer({ min: 1, max: 5 }),
        async (a, b, limit) => {
          const listings = new Listings();
          const of = (rows: unknown[]) => async () => ({ instant: 'now', rows, extra: null });
          const pa = await listings.page('r', { limit }, of(a));
          const pb = await listings.page('r', { limit }, of(b));
          const same = JSON.stringify(a) === JSON.stringify(b);
          if (a.length > limit) expect(pa.next === pb.next).toBe(same);
          for (const [first, rows] of [
            [pa, a],
            [pb, b],
          ] as const) {
            const walked = [...first.rows];
            let next = first.next;
            while (next !== undefined) {
              const page = await listings.page('r', { cursor: next, limit }, of([]));
              walked.push(...page.rows);
              next = page.next;
            }
            expect(walked).toEqual(rows);
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('rows computed on demand (a ranked tick) are named at random; rows JSON cannot write too', async () => {
    const listings = new Listings();
    const source = { length: 3, slice: (s: number, e: number) => [0, 1, 2].slice(s, e) };
    const a = await listings.page('links', { limit: 1 }, async () => ({
      instant: 't',
      rows: source,
      extra: null,
    }));
    const b = await listings.page('links', { limit: 1 }, async () => ({
      instant: 't',
      rows: source,
      extra: null,
    }));
    expect(a.next).not.toBe(b.next);
    const big = async () => ({ instant: 't', rows: [1n, 2n], extra: null });
    const c = await listings.page('r', { limit: 1 }, big);
    expect((await listings.page('r', { cursor: c.next }, big)).rows).toEqual([2n]);
  });
});
