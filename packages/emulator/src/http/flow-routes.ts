import type { FlowFilter } from '@fabscope/contracts';
import { PAGE_MAX } from '@fabscope/contracts/limits';
import type { Emulator } from '../emulator.ts';
import type { StartFlowsRequest } from '../traffic/request.ts';
import { FlowListings } from './flow-listings.ts';
import { HttpError } from './http-error.ts';

const FLOW_FILTERS = ['from', 'to', 'job', 'link'] as const;

/** `GET /v1/flows?from=&to=&job=&link=`: each at most once, nothing else. */
function flowFilter(query: URLSearchParams): FlowFilter {
  const filter: FlowFilter = {};
  for (const key of new Set(query.keys())) {
    if (!(FLOW_FILTERS as readonly string[]).includes(key)) {
      throw new HttpError(
        400,
        `unknown parameter "${key}"; flows filter by ${FLOW_FILTERS.join(', ')} (or page with ${PAGE_PARAMS.join(', ')})`,
      );
    }
    const values = query.getAll(key);
    if (values.length > 1) throw new HttpError(400, `give "${key}" once`);
    filter[key as (typeof FLOW_FILTERS)[number]] = values[0] as string;
  }
  return filter;
}

/** Paging `GET /v1/flows`: `limit` opens a listing (`job` the only filter), `listing` + `offset` read on. */
const PAGE_PARAMS = ['limit', 'listing', 'offset'] as const;

/** The listings of each emulator served (a server's, one per emulator). */
const flowListings = new WeakMap<Emulator, FlowListings>();
function listingsOf(emulator: Emulator): FlowListings {
  const listings = flowListings.get(emulator) ?? new FlowListings();
  flowListings.set(emulator, listings);
  return listings;
}

/** One whole number of `query`'s `key` from `min` to `max`, or undefined when absent. */
function wholeNumber(query: URLSearchParams, key: string, min: number, max: number): number | undefined {
  const values = query.getAll(key);
  if (values.length === 0) return undefined;
  const n = Number(values[0]);
  if (values.length > 1 || !/^\d+$/.test(values[0] as string) || n < min || n > max) {
    throw new HttpError(400, `${key} must be one whole number from ${min} to ${max}`);
  }
  return n;
}

/** `GET /v1/flows`: every (matching) flow, or with `limit` a page of a listing (flow-listings.ts). */
export function listFlows(emulator: Emulator, _body: unknown, query: URLSearchParams): unknown {
  const paged = PAGE_PARAMS.some((key) => query.has(key));
  if (!paged) return { flows: emulator.listFlows(flowFilter(query)) };
  for (const key of new Set(query.keys())) {
    if (key !== 'job' && !(PAGE_PARAMS as readonly string[]).includes(key)) {
      throw new HttpError(400, `"${key}" does not go with a page: a listing filters by job only`);
    }
  }
  const limit = wholeNumber(query, 'limit', 1, PAGE_MAX);
  if (limit === undefined) throw new HttpError(400, `a page needs limit (1 to ${PAGE_MAX})`);
  const jobs = query.getAll('job');
  if (jobs.length > 1) throw new HttpError(400, 'give "job" once');
  const job = jobs[0] ?? '';
  const listings = listingsOf(emulator);
  const id = query.getAll('listing');
  if (id.length === 0) {
    if (query.has('offset')) throw new HttpError(400, 'offset goes with listing');
    return listings.open(job, limit, emulator.flowsVersion(), emulator.nowMs(), () =>
      emulator.listFlows(job === '' ? {} : { job }),
    );
  }
  if (id.length > 1) throw new HttpError(400, 'give "listing" once');
  const offset = wholeNumber(query, 'offset', 0, Number.MAX_SAFE_INTEGER) ?? 0;
  const held = listings.jobOf(id[0] as string);
  if (held !== undefined && jobs.length > 0 && held !== job) {
    throw new HttpError(
      400,
      `listing ${id[0]} was read ${held === '' ? 'without a job' : `for job "${held}"`}`,
    );
  }
  const page = listings.page(id[0] as string, offset, limit);
  if (!page) {
    throw new HttpError(
      410,
      `listing ${id[0]} is no longer held (the newest 8 are): read the first page again, without listing`,
    );
  }
  if (offset > page.total) throw new HttpError(400, 'offset is past the end of the listing');
  return page;
}

/** At most this many flows in a summary of started flows (`POST /v1/flows?first=`). */
const MAX_FIRST_FLOWS = 1000;

/** `POST /v1/flows`; with `?first=N` a summary, so a big fabric's flows are not serialized whole. */
export function startFlows(emulator: Emulator, body: unknown, query: URLSearchParams): unknown {
  for (const key of new Set(query.keys())) {
    if (key !== 'first') throw new HttpError(400, `unknown parameter "${key}"; POST /v1/flows takes first`);
  }
  const first = wholeNumber(query, 'first', 0, MAX_FIRST_FLOWS);
  const flows = emulator.startFlows(body as StartFlowsRequest);
  if (first === undefined) return { flows };
  let bytesPerSecond = 0;
  const jobs = new Set<string>();
  for (const f of flows) {
    bytesPerSecond += f.bytesPerSecond;
    jobs.add(f.job);
  }
  return { started: flows.length, jobs: [...jobs], bytesPerSecond, flows: flows.slice(0, first) };
}
