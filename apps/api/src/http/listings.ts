import { createHash, randomBytes } from 'node:crypto';
import { CURSOR_PATTERN, PAGE_DEFAULT } from '@fabscope/contracts';

// Paged lists with a consistent view, as Kubernetes' `limit` + `continue`: later pages slice the list the first read,
// however the fabric ticked since; a list is named by its content's hash, so an unchanged one keeps cursor and ETag.

/** Lists held per route (several sorts of one instant share it). */
const LISTS_PER_ROUTE = 16;

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
  /** The instant the list is of. */
  instant: string;
  rows: RowSource<T>;
  extra: X;
}

interface Listing extends OpenedList<unknown, unknown> {
  id: string;
  route: string;
  /** What a first page names to page this list again (`reuse`); else its instant. */
  key: string;
  signature: string;
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
  const match = CURSOR.test(cursor) ? /^(.+)\.(.+)$/.exec(cursor) : null;
  if (!match)
    throw new CursorError(400, 'cursor is not one this API gave out: pass the `next` of a page as it is');
  return { id: match[1] as string, offset: Number.parseInt(match[2] as string, 36) };
}

/** The lists being paged through, per route, bounded in number and in idle time. */
export class Listings {
  private readonly lists = new Map<string, Listing>();
  private readonly reading = new Map<string, Promise<Listing>>();
  private readonly instantsPerRoute: number;
  private readonly idleMs: number;
  private readonly now: () => number;

  constructor(options: ListingsOptions = {}) {
    this.instantsPerRoute = options.instantsPerRoute ?? 4;
    this.idleMs = options.idleMs ?? 60_000;
    this.now = options.now ?? Date.now;
  }

  get size(): number {
    return this.lists.size;
  }

  /**
   * One page of `route`'s list: without a cursor, a new list or the held one `reuse` names (one sort per tick, one
   * emulator read per interval); with one, the next slice, other parameters absent or as on its first page.
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
    }
    // Last in the map, the most recently read (and held again if evicted while its list was read).
    listing.lastReadMs = this.now();
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

  /** Reads a list once however many first pages with the same `reuse` key ask for it meanwhile. */
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

  /** After a change, first pages of `route` read anew; held lists stay for their cursors. */
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
    const listing: Listing = same ?? { ...opened, id, route, key: '', signature, lastReadMs: 0 };
    listing.key = key ?? opened.instant;
    listing.lastReadMs = this.now();
    if (same) return same;
    this.lists.set(listing.id, listing);
    for (;;) {
      const ofRoute = [...this.lists.values()].filter((l) => l.route === route);
      const instants = new Set(ofRoute.map((l) => l.instant));
      if (ofRoute.length <= LISTS_PER_ROUTE && instants.size <= this.instantsPerRoute) break;
      this.lists.delete((ofRoute[0] as Listing).id);
    }
    return listing;
  }

  private expire(): void {
    const cut = this.now() - this.idleMs;
    for (const [id, listing] of this.lists) if (listing.lastReadMs < cut) this.lists.delete(id);
  }
}

/** A list's id (16 base64url characters): a hash of route, parameters, rows and extra for an array, else random. */
export function listingId(route: string, signature: string, opened: OpenedList<unknown, unknown>): string {
  if (!Array.isArray(opened.rows)) return randomBytes(12).toString('base64url');
  const hash = createHash('sha256').update(route).update('\0').update(signature).update('\0');
  try {
    for (const row of opened.rows) hash.update(JSON.stringify(row) ?? 'undefined').update('\n');
    hash.update('\0').update(JSON.stringify(opened.extra) ?? 'undefined');
  } catch {
    // Rows JSON cannot write (a cycle, a BigInt) are named at random.
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
