import { ARROW_STREAM_MEDIA_TYPE, EXPOSITION_MEDIA_TYPE } from '@fabscope/contracts/media-types';

/** How far a collector's own read time may lie from the scrape's start and still be taken. */
const STAMP_TOLERANCE_MS = 10_000;

/** Whether a fetch failed on a kept-alive connection the server had closed meanwhile, before any answer. */
function closedConnection(error: unknown): boolean {
  const cause = (error as { cause?: { code?: string } } | null)?.cause;
  return error instanceof TypeError && (cause?.code === 'ECONNRESET' || cause?.code === 'UND_ERR_SOCKET');
}

/** GETs a target: a fabscope collector (`arrow`) is asked for its Arrow columns, any other exporter for text. */
export async function fetchScrape(
  fetchImpl: typeof fetch,
  url: string,
  signal: AbortSignal,
  arrow: boolean,
): Promise<Response> {
  const ask = () =>
    fetchImpl(url, {
      signal,
      headers: arrow
        ? { accept: `${ARROW_STREAM_MEDIA_TYPE}, ${EXPOSITION_MEDIA_TYPE};q=0.5` }
        : { accept: EXPOSITION_MEDIA_TYPE },
    });
  const response = await ask().catch((error: unknown) => {
    if (signal.aborted || !closedConnection(error)) throw error;
    return ask();
  });
  if (!response.ok) throw new Error(`HTTP ${response.status}`);
  return response;
}

/**
 * A scrape's sample time: the collector's stamp (when it read its counters) where it gave one
 * that fits the scrape — never after it ended — else the scrape's start.
 */
export function sampleTimeMs(stampedMs: number | null, startedMs: number, endedMs: number): number {
  if (stampedMs === null || Math.abs(stampedMs - startedMs) > STAMP_TOLERANCE_MS) return startedMs;
  return Math.min(stampedMs, endedMs);
}

/**
 * A port's sample time where the collector stamped that port's read itself (`readAtMs`): the answer's
 * time `timeMs` moved by the port's offset from the answer's stamp, so the port's rate is over its own
 * interval; else (no stamp, or one implausibly far from the answer's) the answer's time.
 */
export function portTimeMs(readAtMs: number, stampMs: number, timeMs: number): number {
  const offsetMs = readAtMs - stampMs;
  return Math.abs(offsetMs) <= STAMP_TOLERANCE_MS ? timeMs + offsetMs : timeMs;
}
