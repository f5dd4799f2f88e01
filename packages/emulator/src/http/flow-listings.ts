import type { FlowInfo } from '@fabscope/contracts';

/** A job's flows and their bytes/s together. */
interface JobTotal {
  job: string;
  flows: number;
  bytesPerSecond: number;
}

/** One page of a listing of flows (`GET /v1/flows?limit=` or `?listing=&offset=&limit=`). */
export interface FlowListingPage {
  /** Names the listing for the next pages. */
  listing: string;
  /** Emulator time the listing was read at. */
  timeMs: number;
  /** Flows of the whole listing. */
  total: number;
  /** Every job of the whole listing, busiest first. */
  jobs: JobTotal[];
  flows: FlowInfo[];
}

interface Listing {
  id: string;
  /** The `job` filter it was read with ('' for none). */
  job: string;
  /** The emulator's flows version it was read at (Emulator.flowsVersion): equal versions, equal flows. */
  version: number;
  timeMs: number;
  flows: FlowInfo[];
  jobs: JobTotal[];
}

/** Every job's flows and bytes/s together, busiest job first (ties by name). */
function jobTotals(flows: readonly FlowInfo[]): JobTotal[] {
  const totals = new Map<string, JobTotal>();
  for (const f of flows) {
    const total = totals.get(f.job) ?? { job: f.job, flows: 0, bytesPerSecond: 0 };
    total.flows++;
    total.bytesPerSecond += f.bytesPerSecond;
    totals.set(f.job, total);
  }
  return [...totals.values()].sort((a, b) => b.bytesPerSecond - a.bytesPerSecond || (a.job < b.job ? -1 : 1));
}

/**
 * Flow listings paged where they are, as the Kubernetes API's `limit` + `continue`: every page is a slice of one
 * read, so a client sees every flow once, of one instant; the `keep` newest listings are held, others are 410.
 */
export class FlowListings {
  /** Held listings, least recently read first. */
  private readonly lists = new Map<string, Listing>();
  private counter = 0;

  constructor(private readonly keep = 8) {}

  /** The first page of a listing of `read()`'s flows (filtered by `job`) at `version` of the flows. */
  open(job: string, limit: number, version: number, timeMs: number, read: () => FlowInfo[]): FlowListingPage {
    let listing = [...this.lists.values()].find((l) => l.job === job && l.version === version);
    if (listing) {
      this.touch(listing);
    } else {
      const flows = read();
      listing = {
        id: `L${(++this.counter).toString(36)}`,
        job,
        version,
        timeMs,
        flows,
        jobs: jobTotals(flows),
      };
      this.lists.set(listing.id, listing);
      for (const id of this.lists.keys()) {
        if (this.lists.size <= this.keep) break;
        this.lists.delete(id);
      }
    }
    return pageOf(listing, 0, limit);
  }

  /** A later page of listing `id`, or undefined when it is no longer held. */
  page(id: string, offset: number, limit: number): FlowListingPage | undefined {
    const listing = this.lists.get(id);
    if (!listing) return undefined;
    this.touch(listing);
    return pageOf(listing, offset, limit);
  }

  /** The `job` filter listing `id` was read with ('' for none), when held. */
  jobOf(id: string): string | undefined {
    return this.lists.get(id)?.job;
  }

  /** Most recently read last: the map's order is the eviction order. */
  private touch(listing: Listing): void {
    this.lists.delete(listing.id);
    this.lists.set(listing.id, listing);
  }
}

function pageOf(listing: Listing, offset: number, limit: number): FlowListingPage {
  return {
    listing: listing.id,
    timeMs: listing.timeMs,
    total: listing.flows.length,
    jobs: listing.jobs,
    flows: listing.flows.slice(offset, offset + limit),
  };
}
