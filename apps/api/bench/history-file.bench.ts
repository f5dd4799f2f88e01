import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { benchReporter, median } from '@fabscope/test-support';
import { buildScenario, CATEGORY_NAMES } from '@fabscope/topology';
import { defaultSampleIntervalMs } from '../src/config.ts';
import type { CategoryHistograms } from '../src/lib/link-errors.ts';
import { LinkIndex } from '../src/lib/link-index.ts';
import { emptyPortRates, type PortRates } from '../src/lib/port-rates.ts';
import { EmbeddedTimeQueries } from '../src/store/embedded-history.ts';
import { type ErrorReading, errorReadingOf } from '../src/store/error-reading.ts';
import { BYTES_PER_DIRECTION, encodeRate } from '../src/store/history-encoding.ts';
import { openFabricHistoryDir } from '../src/store/history-file/fabric-dir.ts';
import { FrameCodec, type StoredFrame } from '../src/store/history-file/frame-codec.ts';
import { HistorySegments } from '../src/store/history-file/history-segments.ts';

/** Bytes a reading takes beyond the port sets it may share with the reading before. */
export function sparseBytes(reading: ErrorReading): number {
  return reading.port.byteLength + reading.field.byteLength + reading.value.byteLength;
}

// The embedded store's history on disk (docs/history.md) at the sampling interval of each size
// (1 s at 1152 hosts, 10 s at 27,648): the time to encode and append one instant, its bytes (and
// what Arrow and the summary add to the 6 bytes per direction and the error reading), and the time
// to read one hour back at start, as
// the API does (every segment read, decoded and copied into the in-memory ring). The hour is read
// right after it was written, from the page cache: a cold disk adds its read of the same bytes.
const LIMITS = {
  'fat-tree-1152': { writeMs: 5, overheadPercent: 10, readHourMs: 3000 },
  'fat-tree-27648': { writeMs: 50, overheadPercent: 1, readHourMs: 5000 },
} as const;
const HOUR_MS = 3_600_000;

const bench = benchReporter();
for (const [scenario, limits] of Object.entries(LIMITS)) {
  const index = new LinkIndex(buildScenario(scenario));
  const n = index.channels.length;
  const intervalMs = defaultSampleIntervalMs(index.fabric);
  const data = mkdtempSync(join(tmpdir(), 'fabscope-history-bench-'));
  try {
    const dir = openFabricHistoryDir(data, index);
    let seed = 7;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    const load = Uint16Array.from({ length: n }, () => Math.floor(random() * 40000));
    const wait = Uint8Array.from({ length: n }, () => Math.floor(random() * 50));
    const up = new Int8Array(n).fill(1);
    const packets = Uint16Array.from({ length: n }, () => encodeRate(random() * 3e6));
    // The ports' error readings as the store makes them: every scrape at 1 s, every third at 10 s
    // (its error interval, 30 s); every port reports the same fields, 1 % of them symbol errors.
    const readingEvery = intervalMs <= 1000 ? 1 : 3;
    let reading: ErrorReading | undefined;
    const newReading = () => {
      const ports = new Map<string, PortRates>();
      for (const { fromKey } of index.channels) {
        const port = emptyPortRates();
        port.errors = {
          symbolErrors: random() < 0.01 ? random() * 100 : 0,
          receiveErrors: 0,
          linkDowned: 0,
          linkErrorRecovery: 0,
          transmitDiscards: 0,
          linkQualityIndicator: 5,
        };
        ports.set(fromKey, port);
      }
      reading = errorReadingOf(index, ports, reading);
    };
    const categories = Object.fromEntries(
      CATEGORY_NAMES.map((name) => [
        name,
        { isl: [n / 4, 0, 0, 0, 0], host: [n / 4, 0, 0, 0, 0], unknown: n / 2 },
      ]),
    ) as CategoryHistograms;
    const start = Date.now() - HOUR_MS;
    const frameAt = (f: number): StoredFrame => {
      // A tenth of the directions change per instant, as traffic shifts.
      for (let k = f % 10; k < n; k += 10) load[k] = Math.floor(random() * 40000);
      if (f % readingEvery === 0) newReading();
      const timeMs = start + f * intervalMs;
      return {
        timeMs,
        columns: { load, packets, wait, up, errors: reading },
        summary: {
          time: new Date(timeMs).toISOString(),
          hostTransmitBytesPerSecond: 1e12 * random(),
          histogram: { isl: new Array(10).fill(n / 20), host: new Array(10).fill(n / 20) },
          staleLinks: 0,
          categories,
          portsWithoutData: 0,
        },
      };
    };

    // An instant with a reading of its own that shares the port sets before it (the usual case;
    // a segment's first writes them once, n bytes): what Arrow and the summary add beyond the data.
    const codec = new FrameCodec(dir.identity);
    codec.encode(frameAt(0));
    for (let f = 1; f < readingEvery; f++) codec.encode(frameAt(f));
    const withReading = frameAt(readingEvery);
    const batchBytes = codec.encode(withReading).batch.byteLength;
    const raw = n * BYTES_PER_DIRECTION + sparseBytes(withReading.columns.errors as ErrorReading);
    seed = 7;
    reading = undefined;
    const frames = Math.floor(HOUR_MS / intervalMs) + 1;
    const segments = new HistorySegments(dir, { retentionMs: HOUR_MS, maxBytes: 2 ** 40 });
    const writes: number[] = [];
    for (let f = 0; f < frames; f++) {
      const frame = frameAt(f);
      const t = performance.now();
      segments.append(frame);
      writes.push(performance.now() - t);
    }
    segments.close();
    const prefix = `${scenario} (${n} directions, ${intervalMs / 1000} s)`;
    bench.report(`${prefix} write per instant, median`, median(writes), 'ms', limits.writeMs, 3);
    bench.report(`${prefix} write per instant, slowest`, Math.max(...writes), 'ms', undefined, 3);
    bench.report(`${prefix} bytes per instant`, batchBytes, 'B', undefined, 0);
    bench.report(
      `${prefix} Arrow and summary over 6 B per direction and the error reading's own bytes`,
      ((batchBytes - raw) / raw) * 100,
      '%',
      limits.overheadPercent,
    );
    bench.report(`${prefix} one hour on disk (${frames} instants)`, segments.bytes / 1e6, 'MB', undefined, 1);

    // Start-up: a new history for the same fabric reads the hour back (EmbeddedTimeQueries' constructor).
    const reads: number[] = [];
    let loaded = 0;
    for (let run = 0; run < 3; run++) {
      const queries = new EmbeddedTimeQueries(
        {
          onScrape: () => () => undefined,
          rates: async () => ({ timeMs: 0, ok: true, lastSampleAgeSeconds: 0, ports: new Map() }),
          staleAfterMs: () => 3 * intervalMs,
        },
        index,
        { intervalMs, historyDir: dir, now: () => start + HOUR_MS },
      );
      reads.push(queries.loaded?.ms ?? Number.NaN);
      loaded = queries.loaded?.frames ?? 0;
      queries.close();
      // (close finishes no segment: nothing was written)
    }
    if (loaded !== frames) throw new Error(`read ${loaded} instants back, wrote ${frames}`);
    bench.report(
      `${prefix} start-up read of one hour (${loaded} instants)`,
      median(reads),
      'ms',
      limits.readHourMs,
      0,
    );
    dir.release();
  } finally {
    rmSync(data, { recursive: true, force: true });
  }
}
console.log(`peak RSS: ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MiB`);
process.exit(bench.failed === 0 ? 0 : 1);
