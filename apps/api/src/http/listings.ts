import { createHash, randomBytes } from 'node:crypto';
import { CURSOR_PATTERN, PAGE_DEFAULT } from '@fabscope/contracts';

// Paged lists with a consistent view, as the Kubernetes API's `limit` + `continue`: the first page
// of a list reads it whole once (a sampling tick sorted and filtered, the emulator's flows, the
// jobs), keeps it, and answers a cursor to the next page; every later page is a slice of that same
// list, however the fabric has ticked on since. A bounded number of lists is kept per route.
//
// A list read as rows (an array: jobs, events, a link's flows) is named by its content: its id is
// a hash of the route, the parameters and the rows with what the answer adds beside them. Two
// reads of a list that did not change are one list, with one id: the same `next` cursor, hence
// the same answer and the same ETag (a client polling it gets 304). A list of rows computed as
// pages ask (a ranked tick) is named at random: its instant is in its answer anyway.

/** A cursor that is not one of this server's (400), or whose list is no longer held (410). */
export class CursorError extends Error {
  override name = 'CursorError';
  constructor(
    readonly statusCode: 400 | 410,
    message: string,
  ) {
    super(message);
  }
}

export interface ListingsOptions {
  /** Distinct instants (ticks, reads of the emulator) held per route; the least recently read goes first. */
  instantsPerRoute?: number;
  /** Lists held per route (several sorts of one instant share it). */
  listsPerRoute?: number;
  /** A list not read for this long is dropped. */
  idleMs?: number;
  now?: () => number;
}

/** Rows read a slice at a time (an array is one; so is lib/link-order.ts's RankedLinks). */
export interface RowSource<T> {
  readonly length: number;
  slice(start: number, end: number): T[];
}

/** What the first page reads: the whole list, in page order, and what the answer adds beside it. */
export interface OpenedList<T, X> {
  /** The instant the list is of (a tick's time, when the emulator was read). */
  instant: string;
  /** An array, or rows computed as pages ask for them (the rest of a ranking). */
  rows: RowSource<T>;
  extra: X;
}

interface Listing {
  id: string;
  route: string;
  /** The list's instant and the parameters that chose and ordered its rows. */
  instant: string;
  /** What a first page names to page this list again (`reuse`); else its instant. */
  key: string;
  signature: string;
  rows: RowSource<unknown>;
  extra: unknown;
  lastReadMs: number;
}

export interface Page<T, X> {
  instant: string;
  rows: T[];
  total: number;
  next?: string;
  extra: X;
}

/** Query parameters of a page request: `limit` and `cursor` and those that choose the list. */
export type PageParams = { limit?: number | undefined; cursor?: string | undefined } & Record<
  string,
  unknown
>;

/** The parameters that choose and order a list (all but `limit` and `cursor`), as one text. */
function signatureOf(params: PageParams): string {
  const chosen = Object.entries(params)
    .filter(([key, value]) => key !== 'limit' && key !== 'cursor' && value !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : 1));
  return JSON.stringify(chosen);
}

function encodeCursor(id: string, offset: number): string {
  return `${id}.${offset.toString(36)}`;
}

const CURSOR = new RegExp(CURSOR_PATTERN);

function decodeCursor(cursor: string): { id: string; offset: number } {
  // Of the form but not held (another route's, or gone): the lookup answers 410.
  const match = CURSOR.test(cursor) ? /^(.+)\.(.+)$/.exec(cursor) : null;
  if (!match)
    throw new CursorError(400, 'cursor is not one this API gave out: pass the `next` of a page as it is');
  return { id: match[1] as string, offset: Number.parseInt(match[2] as string, 36) };
}

export const DEFAULT_INSTANTS_PER_ROUTE = 4;
export const DEFAULT_LISTS_PER_ROUTE = 16;
export const DEFAULT_LIST_IDLE_MS = 60_000;

/** The lists being paged through, per route, bounded in number and in idle time. */
export class Listings {
  private readonly lists = new Map<string, Listing>();
  /** Lists being read for first pages that named a `reuse` key, by route, key and parameters. */
  private readonly reading = new Map<string, Promise<Listing>>();
  private readonly instantsPerRoute: number;
  private readonly listsPerRoute: number;
  private readonly idleMs: number;
  private readonly now: () => number;

  constructor(options: ListingsOptions = {}) {
    this.instantsPerRoute = options.instantsPerRoute ?? DEFAULT_INSTANTS_PER_ROUTE;
    this.listsPerRoute = options.listsPerRoute ?? DEFAULT_LISTS_PER_ROUTE;
    this.idleMs = options.idleMs ?? DEFAULT_LIST_IDLE_MS;
    this.now = options.now ?? Date.now;
  }

  /** Lists held now, every route together (tests and diagnostics). */
  get size(): number {
    return this.lists.size;
  }

  /**
   * One page of `route`'s list. Without a cursor the list is opened: `reuse` (when given) names a
   * list of the same parameters that, if held or being read, is paged instead of reading another
   * (two first pages in one tick share one sort; of one past instant, one read of the store; of
   * the flows within one sampling interval, one read of the emulator); otherwise `open` reads it.
   * With a cursor, the page is the next slice of the list it names; parameters other than `limit`
   * must be absent or the same as its first page's.
   */
  async page<T, X>(
    route: string,
    params: PageParams,
    open: () => Promise<OpenedList<T, X>>,
    reuse?: string,
  ): Promise<Page<T, X>> {
    this.expire();
    const limit = params.limit ?? PAGE_DEFAULT;
    const signature = signatureOf(params);
    let listing: Listing;
    let offset = 0;
    if (params.cursor !== undefined) {
      const cursor = decodeCursor(params.cursor);
      const held = this.lists.get(cursor.id);
      if (!held || held.route !== route) {
        if (held) throw new CursorError(400, `this cursor is of another list than ${route}`);
        throw new CursorError(
          410,
          `this cursor's list is no longer held (lists are kept ${this.idleMs / 1000} s after a page is read, ` +
            `and ${this.instantsPerRoute} instants per route at most): read the first page again, without cursor`,
        );
      }
      if (signature !== '[]' && signature !== held.signature) {
        throw new CursorError(
          400,
          `the cursor reads on a list asked with ${describe(held.signature)}; leave the other parameters out or give the same`,
        );
      }
      if (cursor.offset > held.rows.length) throw new CursorError(400, 'cursor is past the end of its list');
      listing = held;
      offset = cursor.offset;
    } else {
      const held =
        reuse === undefined
          ? undefined
          : [...this.lists.values()].find(
              (l) => l.route === route && l.key === reuse && l.signature === signature,
            );
      listing = held ?? (await this.opened(route, signature, open, reuse));
      // Evicted while this page waited for its list to be read: held again, for its cursor.
      if (!this.lists.has(listing.id)) this.lists.set(listing.id, listing);
    }
    listing.lastReadMs = this.now();
    // Most recently read last: the map's order is the eviction order.
    this.lists.delete(listing.id);
    this.lists.set(listing.id, listing);
    const end = Math.min(offset + limit, listing.rows.length);
    const page: Page<T, X> = {
      instant: listing.instant,
      rows: listing.rows.slice(offset, end) as T[],
      total: listing.rows.length,
      extra: listing.extra as X,
    };
    if (end < listing.rows.length) page.next = encodeCursor(listing.id, end);
    return page;
  }

  /**
   * Reads a list once however many first pages ask for it at the same time: those that name the
   * same `reuse` key and parameters while it is being read wait for that read (a slow upstream is
   * asked once, not once per client).
   */
  private opened(
    route: string,
    signature: string,
    open: () => Promise<OpenedList<unknown, unknown>>,
    reuse: string | undefined,
  ): Promise<Listing> {
    if (reuse === undefined) return open().then((opened) => this.keep(route, signature, opened, undefined));
    const key = JSON.stringify([route, reuse, signature]);
    let reading = this.reading.get(key);
    if (!reading) {
      reading = open()
        .then((opened) => this.keep(route, signature, opened, reuse))
        .finally(() => this.reading.delete(key));
      this.reading.set(key, reading);
    }
    return reading;
  }

  /**
   * After a change (traffic started or stopped), first pages of `route` read anew: the lists held
   * stay for their cursors, but no first page reuses them.
   */
  invalidate(route: string): void {
    for (const listing of this.lists.values())
      if (listing.route === route) listing.key = `stale ${listing.id}`;
    for (const key of this.reading.keys()) if (JSON.parse(key)[0] === route) this.reading.delete(key);
  }

  private keep(
    route: string,
    signature: string,
    opened: OpenedList<unknown, unknown>,
    key: string | undefined,
  ): Listing {
    const id = listingId(route, signature, opened);
    const same = this.lists.get(id);
    if (same) {
      // The same rows read again: the list held is this one (its cursors read on as they did).
      same.key = key ?? opened.instant;
      same.lastReadMs = this.now();
      return same;
    }
    const listing: Listing = {
      id,
      route,
      instant: opened.instant,
      key: key ?? opened.instant,
      signature,
      rows: opened.rows,
      extra: opened.extra,
      lastReadMs: this.now(),
    };
    this.lists.set(listing.id, listing);
    // Oldest read first: drop until the route holds its bounds of lists and of instants.
    for (;;) {
      const ofRoute = [...this.lists.values()].filter((l) => l.route === route);
      const instants = new Set(ofRoute.map((l) => l.instant));
      if (ofRoute.length <= this.listsPerRoute && instants.size <= this.instantsPerRoute) break;
      this.lists.delete((ofRoute[0] as Listing).id);
    }
    return listing;
  }

  private expire(): void {
    const cut = this.now() - this.idleMs;
    for (const [id, listing] of this.lists) if (listing.lastReadMs < cut) this.lists.delete(id);
  }
}

/**
 * A list's id (16 characters of base64url, as CURSOR_PATTERN has it): of an array of rows, a hash
 * of the route, its parameters, every row and the answer's extra, so equal lists have equal ids
 * (and different ones differ but by a 96-bit hash's chance); of rows computed on demand, random.
 */
export function listingId(route: string, signature: string, opened: OpenedList<unknown, unknown>): string {
  if (!Array.isArray(opened.rows)) return randomBytes(12).toString('base64url');
  const hash = createHash('sha256').update(route).update('\0').update(signature).update('\0');
  try {
    // Row by row: a long list is never one string.
    for (const row of opened.rows) hash.update(JSON.stringify(row) ?? 'undefined').update('\n');
    hash.update('\0').update(JSON.stringify(opened.extra) ?? 'undefined');
  } catch {
    // Rows JSON cannot write (a cycle, a BigInt) are named at random, as before.
    return randomBytes(12).toString('base64url');
  }
  return hash.digest('base64url').slice(0, 16);
}

function describe(signature: string): string {
  const pairs = JSON.parse(signature) as [string, unknown][];
  return pairs.length === 0 ? 'no parameters' : pairs.map(([k, v]) => `${k}=${String(v)}`).join('&');
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The lists being paged through (app.ts creates one per app). */
    listings: Listings;
  }
}
