import { PAGE_MAX } from '@fabscope/contracts/limits';
import { checkHealth, checkLinks, checkSummary, isRecord, parseEvents, parseHistory } from './answers.ts';
import type { FabricInfo, Features, Snapshot } from './api-types.ts';
import { HttpError, ServerUnreachableError, TopClientError } from './errors.ts';
import { rankByUtilization, sortByPackets } from './rank.ts';
import type { SortKey, ViewState } from './state.ts';

export interface TopClientOptions {
  url: string;
  token?: string | undefined;
  timeoutMs?: number;
}

/** How far back the feature probe asks: any answer but 404 or 409 means the server has it. */
const PROBE_MS = 10_000;
/** Ticks asked for on each side of the one on screen: enough for r/R/f/F and the sparkline. */
const HISTORY_WINDOW_MS = 120_000;
/** Events asked for before the tick on screen (the newest are shown). */
const EVENTS_WINDOW_MS = 600_000;

const serverSort: Record<SortKey, { sort: string; order: string }> = {
  utilization: { sort: 'utilization', order: 'desc' },
  utilizationLowest: { sort: 'utilization', order: 'asc' },
  wait: { sort: 'transmitWaitFraction', order: 'desc' },
  packets: { sort: 'packetsPerSecond', order: 'desc' },
  integrity: { sort: 'integrity', order: 'desc' },
};

/** Asks a fabscope server's REST API (/api/v1) for what one screen shows. */
export class TopClient {
  private readonly base: string;
  private readonly timeoutMs: number;
  private readonly headers: Record<string, string>;

  constructor(options: TopClientOptions) {
    this.base = `${options.url.replace(/\/+$/, '')}/api/v1`;
    this.timeoutMs = options.timeoutMs ?? 5000;
    this.headers = { accept: 'application/json' };
    if (options.token) this.headers.authorization = `Bearer ${options.token}`;
  }

  /** GET `path`; null on 404 when `optional` (the server lacks that feature). */
  private async get(path: string, optional = false): Promise<unknown> {
    let response: Response;
    try {
      response = await fetch(`${this.base}${path}`, {
        headers: this.headers,
        signal: AbortSignal.timeout(this.timeoutMs),
      });
    } catch (error) {
      const cause =
        error instanceof Error ? ((error.cause as Error | undefined)?.message ?? error.message) : '';
      const reason =
        error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError')
          ? `no answer within ${this.timeoutMs / 1000} s`
          : cause || String(error);
      throw new ServerUnreachableError(`cannot reach ${this.base}${path}: ${reason}`);
    }
    if (optional && response.status === 404) {
      await response.body?.cancel();
      return null;
    }
    if (!response.ok) {
      const text = await response.text().catch(() => '');
      let message = text.slice(0, 200);
      try {
        const parsed = JSON.parse(text) as { message?: unknown };
        if (typeof parsed.message === 'string') message = parsed.message;
      } catch {
        // not JSON: the text itself, cut short
      }
      throw new HttpError(
        response.status,
        `GET ${this.base}${path}: HTTP ${response.status}${message ? ` ${message}` : ''}`,
      );
    }
    try {
      return await response.json();
    } catch {
      throw new TopClientError(
        `GET ${this.base}${path}: the answer is not JSON (is this a fabscope server?)`,
      );
    }
  }

  /** Whether GET /links takes sort=packetsPerSecond; unknown until asked. */
  private serverRanksPackets: boolean | undefined;

  /** GET /links; a first packets ranking the server refuses is asked again unranked. */
  private async rankedLinks(
    query: URLSearchParams,
    packets: boolean,
  ): Promise<{ body: unknown; rankHere: boolean }> {
    try {
      const body = await this.get(`/links?${query}`);
      if (packets) this.serverRanksPackets = true;
      return { body, rankHere: query.get('sort') === null };
    } catch (error) {
      if (
        !packets ||
        this.serverRanksPackets !== undefined ||
        !(error instanceof HttpError) ||
        error.status !== 400
      ) {
        throw error;
      }
      this.serverRanksPackets = false;
      for (const name of ['sort', 'order', 'limit']) query.delete(name);
      return { body: await this.get(`/links?${query}`), rankHere: true };
    }
  }

  /** Which optional endpoints the server has: 404 (older server) or 409 (no history) turns a feature off. */
  async features(nowMs = Date.now()): Promise<Features> {
    // A server that cannot be reached says nothing about its features: that error is thrown.
    const absentUnlessUnreachable = (error: unknown) => {
      if (error instanceof ServerUnreachableError) throw error;
      return null;
    };
    const from = `from=${encodeURIComponent(new Date(nowMs - PROBE_MS).toISOString())}`;
    const [history, events] = await Promise.all([
      this.get(`/summary/history?${from}`, true).catch(absentUnlessUnreachable),
      this.get(`/events?${from}`, true).catch(absentUnlessUnreachable),
    ]);
    return { history: history !== null, events: events !== null };
  }

  /** The fabric's name and kind (GET /topology, once: it is the largest answer). */
  async fabric(): Promise<FabricInfo> {
    const body = await this.get('/topology');
    if (!isRecord(body) || typeof body.name !== 'string') {
      throw new TopClientError('GET /api/v1/topology: not a fabscope topology');
    }
    return { name: body.name, fabricType: typeof body.fabricType === 'string' ? body.fabricType : '' };
  }

  /** Health, summary and the ranked rows `state` asks for (`rows` of them from state.scroll). */
  async snapshot(state: ViewState, rows: number, features: Features, nowMs = Date.now()): Promise<Snapshot> {
    const time = state.time && features.history ? state.time : null;
    const at = time ? `time=${encodeURIComponent(time)}` : '';
    const limit = state.scroll + rows + 1;
    const query = new URLSearchParams();
    const ranking = serverSort[state.sort];
    // Servers that cannot rank by packets (400) send every direction, ranked here instead.
    const rankHere = state.sort === 'packets' && this.serverRanksPackets === false;
    if (!rankHere) {
      query.set('sort', ranking.sort);
      query.set('order', ranking.order);
      // The API pages at most PAGE_MAX directions: deeper scrolls show the first page.
      query.set('limit', String(Math.min(limit, PAGE_MAX)));
    }
    if (state.filter !== 'all') query.set('kind', state.filter);
    if (time) query.set('time', time);
    // Ticks around the one on screen (r/R/f/F step through them) and the events before it.
    const anchorMs = time ? Date.parse(time) : nowMs;
    const range = (beforeMs: number, afterMs: number) => {
      const parts = [`from=${encodeURIComponent(new Date(anchorMs - beforeMs).toISOString())}`];
      if (anchorMs + afterMs < nowMs)
        parts.push(`to=${encodeURIComponent(new Date(anchorMs + afterMs).toISOString())}`);
      return parts.join('&');
    };
    // An endpoint the server has, parsed; null when it lacks it.
    const optional = async <T>(has: boolean, path: string, parse: (body: unknown) => T) => {
      const body = has ? await this.get(path, true) : null;
      return body === null ? null : parse(body);
    };
    const [health, summary, linksBody, waitBody, history, events] = await Promise.all([
      this.get('/health').then(checkHealth),
      this.get(`/summary${at ? `?${at}` : ''}`).then(checkSummary),
      this.rankedLinks(query, state.sort === 'packets' && !rankHere),
      this.get(`/links?sort=transmitWaitFraction&order=desc&limit=1${at ? `&${at}` : ''}`),
      optional(
        features.history,
        `/summary/history?${range(HISTORY_WINDOW_MS, HISTORY_WINDOW_MS)}`,
        parseHistory,
      ),
      optional(features.events, `/events?${range(EVENTS_WINDOW_MS, 0)}`, parseEvents),
    ]);
    let links = checkLinks(linksBody.body);
    if (linksBody.rankHere) links = sortByPackets(links);
    else if (state.sort === 'utilization') links = rankByUtilization(links, 'desc');
    else if (state.sort === 'utilizationLowest') links = rankByUtilization(links, 'asc');
    return {
      askedTime: time,
      health,
      summary,
      links: links.slice(0, limit - 1),
      moreLinks: links.length >= limit,
      mostWaiting: checkLinks(waitBody)[0] ?? null,
      history,
      events,
    };
  }
}
