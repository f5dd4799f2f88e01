import { ERROR_FIELDS } from '@fabscope/contracts';
import { ARROW_STREAM_MEDIA_TYPE } from '@fabscope/contracts/media-types';
import { readBodyInSlices } from '../lib/read-body.ts';
import { ArrowIngest } from './arrow-ingest.ts';
import { readArrowScrape } from './arrow-scrape.ts';
import type { PortReadings } from './port-readings.ts';
import { fetchScrape, sampleTimeMs } from './scrape-request.ts';
import { scrapeRoles } from './scrape-staging.ts';
import type { SeriesMapping } from './series-mapping.ts';
import { TextIngest } from './text-ingest.ts';

/** What the last scrape of one target took (ms), for diagnostics and the benchmarks. */
export interface TargetScrapeStats {
  target: string;
  /** The URL fetched: the target, with `name[]` when the exporter selects families. */
  url: string;
  /** Request sent → response headers (a collector answers once it has read its source). */
  headersMs: number;
  /** Headers → end of the body, read and parsed as it streams in. */
  bodyMs: number;
  /** Parsed samples → port histories. */
  ingestMs: number;
  /** Samples of wanted metrics read. */
  samples: number;
  /** The form the target answered in: exposition text, or Arrow (a fabscope collector asked for it). */
  format?: 'text' | 'arrow';
  /** When its counters were read (the collector's stamp, else the scrape's start), once they were taken. */
  sampleTimeMs?: number;
  error?: string;
}

/** Scrapes the targets into the ports' readings: asks each for the families it reads, in the form it answers. */
export class TargetScraper {
  private readonly text: TextIngest;
  private readonly arrow: ArrowIngest;
  /** The URL each target is fetched at (with `name[]` when the exporter selects families). */
  private readonly urls: string[];
  /** The same without the error families, for the scrapes between two error scrapes. */
  private readonly fastUrls: string[];

  constructor(
    private readonly targets: readonly string[],
    readings: PortReadings,
    private readonly mapping: SeriesMapping,
    private readonly fetchImpl: typeof fetch,
    private readonly now: () => number,
    onReset: (key: string) => void,
  ) {
    const roles = scrapeRoles(mapping);
    this.text = new TextIngest(targets, readings, roles, mapping, onReset);
    this.arrow = new ArrowIngest(targets.length, readings, roles, mapping, onReset);
    const urlsOf = (names: readonly string[]) => {
      const query = names.map((n) => `name[]=${encodeURIComponent(n)}`).join('&');
      return targets.map((t) => (mapping.selectsByName ? `${t}${t.includes('?') ? '&' : '?'}${query}` : t));
    };
    this.urls = urlsOf(roles.names);
    const errorNames = new Set<string>(ERROR_FIELDS.flatMap((f) => [...(mapping.fields[f] ?? [])]));
    this.fastUrls = urlsOf(roles.names.filter((n) => !errorNames.has(n)));
  }

  /** Scrapes target `i` (with its error families or not); a failure is the stats' `error`. */
  async scrape(i: number, withErrors: boolean, signal: AbortSignal): Promise<TargetScrapeStats> {
    const target = this.targets[i] as string;
    const url = (withErrors ? this.urls : this.fastUrls)[i] as string;
    const stats: TargetScrapeStats = { target, url, headersMs: 0, bodyMs: 0, ingestMs: 0, samples: 0 };
    try {
      await this.scrapeInto(i, url, signal, stats);
    } catch (error) {
      stats.error = error instanceof Error ? error.message : String(error);
    }
    return stats;
  }

  private async scrapeInto(
    i: number,
    url: string,
    signal: AbortSignal,
    stats: TargetScrapeStats,
  ): Promise<void> {
    // Stamped when the collector read its counters where it says so, else at the scrape's start
    // (as Prometheus does): the answer's size delays only its end.
    const startedMs = this.now();
    let t = performance.now();
    const response = await fetchScrape(this.fetchImpl, url, signal, this.mapping.selectsByName === true);
    stats.headersMs = performance.now() - t;
    t = performance.now();
    if ((response.headers.get('content-type') ?? '').startsWith(ARROW_STREAM_MEDIA_TYPE)) {
      stats.format = 'arrow';
      const scrape = readArrowScrape(await readBodyInSlices(response));
      stats.bodyMs = performance.now() - t;
      t = performance.now();
      const timeMs = sampleTimeMs(scrape.countersReadAtMs, startedMs, this.now());
      stats.samples = await this.arrow.commit(i, scrape, timeMs);
      stats.sampleTimeMs = timeMs;
      stats.ingestMs = performance.now() - t;
      return;
    }
    stats.format = 'text';
    const scanned = await this.text.read(i, response.body as AsyncIterable<Uint8Array> | null);
    stats.samples = scanned.samples;
    stats.bodyMs = performance.now() - t;
    t = performance.now();
    stats.sampleTimeMs = sampleTimeMs(scanned.latestTimestampMs, startedMs, this.now());
    scanned.commit(stats.sampleTimeMs);
    stats.ingestMs = performance.now() - t;
  }
}
