import { spawnSync } from 'node:child_process';
import {
  appendFileSync,
  copyFileSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { buildScenario, CATEGORY_NAMES, twoTierFatTree } from '@fabscope/topology';
import { tableFromIPC } from '@uwdata/flechette';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError, configFromEnv } from '../src/config.ts';
import { MemoryEventLog } from '../src/events/event-log.ts';
import type { CategoryHistograms } from '../src/lib/link-errors.ts';
import { LinkIndex } from '../src/lib/link-index.ts';
import { emptyPortRates, type PortRates, type RatesSnapshot } from '../src/lib/port-rates.ts';
import { EmbeddedTimeQueries, type ScrapeDone } from '../src/store/embedded-history.ts';
import { type ErrorReading, errorReadingOf } from '../src/store/error-reading.ts';
import { RATE_UNKNOWN } from '../src/store/history-encoding.ts';
import { wholeMessages } from '../src/store/history-file/arrow-messages.ts';
import {
  type FabricHistoryDir,
  HistoryDirBusyError,
  historyDirFor,
  openFabricHistoryDir,
} from '../src/store/history-file/fabric-dir.ts';
import { FrameCodec, type StoredFrame } from '../src/store/history-file/frame-codec.ts';
import { HistorySegments } from '../src/store/history-file/history-segments.ts';

const START_MS = Date.UTC(2026, 10, 22, 10, 0, 0);
const HOUR_MS = 3_600_000;

const arDemo = new LinkIndex(buildScenario('ar-demo'));

const readings = new Map<string, ErrorReading>();

/**
 * The ports' error reading of instant `f`: a new one every third instant (the same object in
 * between, as the store gives it), none at the fifth; ports with symbol errors, a quality of 3.
 */
function readingOf(index: LinkIndex, f: number): ErrorReading | undefined {
  if (f % 5 === 4) return undefined;
  const group = Math.floor(f / 3);
  const key = `${index.channels.length}:${group}`;
  let reading = readings.get(key);
  if (!reading) {
    const ports = new Map<string, PortRates>();
    index.channels.forEach((ch, c) => {
      if (c === 1) return;
      const port = emptyPortRates();
      port.errors =
        c % 3 === 0
          ? { symbolErrors: group + c / 10, linkDowned: 0, linkQualityIndicator: c === 0 ? 3 : 5 }
          : { symbolErrors: 0, linkDowned: 0 };
      ports.set(ch.fromKey, port);
    });
    // The ports report the same fields each time: the reading shares the port sets of the one before.
    reading = errorReadingOf(index, ports, readings.get(`${index.channels.length}:${group - 1}`));
    readings.set(key, reading);
  }
  return reading;
}

/** A frame of `index` whose values say which instant `f` it is. */
function frame(index: LinkIndex, f: number, timeMs = START_MS + f * 1000): StoredFrame {
  const n = index.channels.length;
  return {
    timeMs,
    columns: {
      load: Uint16Array.from({ length: n }, (_, c) => (f * 100 + c) % 0xffff),
      packets: Uint16Array.from({ length: n }, (_, c) => (c === 2 ? 0xffff : (f * 1000 + c) % 0xffff)),
      wait: Uint8Array.from({ length: n }, (_, c) => (f + c) % 255),
      up: Int8Array.from({ length: n }, (_, c) => (c === 0 && f % 2 === 1 ? 0 : 1)),
      errors: readingOf(index, f),
    },
    summary: {
      time: new Date(timeMs).toISOString(),
      hostTransmitBytesPerSecond: f === 2 ? null : 1e9 * f,
      histogram: {
        isl: Array.from({ length: 10 }, (_, b) => b + f),
        host: Array.from({ length: 10 }, () => f),
      },
      staleLinks: f,
      ...(f % 2 === 0
        ? {
            categories: Object.fromEntries(
              CATEGORY_NAMES.map((name, k) => [
                name,
                { isl: [f, k, 0, 0, 1], host: [0, 0, k, f, 0], unknown: k + f },
              ]),
            ) as CategoryHistograms,
            portsWithoutData: f,
          }
        : {}),
    },
  };
}

/** Frame numbers of what a load of `dir` gives, checking every value of each. */
function loadedFrames(
  dir: FabricHistoryDir,
  options: { nowMs: number; retentionMs?: number; maxBytes?: number },
) {
  const reports: string[] = [];
  const seen: number[] = [];
  const segments = new HistorySegments(dir, {
    retentionMs: options.retentionMs ?? HOUR_MS,
    maxBytes: options.maxBytes ?? 2 ** 30,
    now: () => options.nowMs,
    report: (m) => reports.push(m),
  });
  segments.load((got) => {
    const f = Math.round((got.timeMs - START_MS) / 1000);
    const want = frame(dir.index, f, got.timeMs);
    expect(Array.from(got.columns.load)).toEqual(Array.from(want.columns.load));
    expect(Array.from(got.columns.wait)).toEqual(Array.from(want.columns.wait));
    expect(Array.from(got.columns.packets)).toEqual(Array.from(want.columns.packets));
    expect(got.columns.errors).toEqual(want.columns.errors);
    expect(Array.from(got.columns.up)).toEqual(Array.from(want.columns.up));
    expect(got.summary).toEqual(want.summary);
    seen.push(f);
  });
  return { seen, reports, segments };
}

function segmentFiles(dir: FabricHistoryDir): string[] {
  return readdirSync(dir.path)
    .filter((n) => n.endsWith('.arrows'))
    .sort();
}

describe('the embedded history on disk', () => {
  const dirs: string[] = [];
  const dataDir = () => {
    const d = mkdtempSync(join(tmpdir(), 'fabscope-history-'));
    dirs.push(d);
    return d;
  };
  afterEach(() => {
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });

  it('is an Arrow IPC stream per segment, one record batch per instant, read back whole', () => {
    const dir = openFabricHistoryDir(dataDir(), arDemo);
    const writer = new HistorySegments(dir, { retentionMs: HOUR_MS, maxBytes: 2 ** 30 });
    for (let f = 0; f < 5; f++) writer.append(frame(arDemo, f));
    writer.close();
    const [file] = segmentFiles(dir);
    expect(file).toBe('history-20261122T100000.000Z.arrows');
    const bytes = readFileSync(join(dir.path, file as string));
    // Schema, five record batches, end of stream.
    expect(wholeMessages(bytes)).toMatchObject({ ended: true });
    expect(wholeMessages(bytes).messages.map((m) => m.type)).toEqual([1, 3, 3, 3, 3, 3]);
    const table = tableFromIPC(bytes);
    expect(table.numRows).toBe(5);
    expect(table.schema.fields.map((f) => f.name)).toEqual([
      'time',
      'load',
      'wait',
      'link_up',
      'host_transmit_bytes_per_second',
      'histogram_isl',
      'histogram_host',
      'stale_links',
      'packets',
      'error_reading',
      'error_sets',
      'error_port_set',
      'error_ports',
      'error_fields',
      'error_values',
      'histogram_categories',
      'ports_without_data',
    ]);
    expect(table.getChild('time').toArray()[4]).toBe(START_MS + 4000);
    expect(table.schema.metadata?.get('fabscope.fabric')).toBe(dir.identity.hash);
    // The directions the lists are in, with their capacities.
    const directions = tableFromIPC(readFileSync(join(dir.path, 'directions.arrow')));
    expect(directions.getChild('id').toArray()).toEqual(arDemo.channels.map((c) => c.fixed.id));
    expect(loadedFrames(dir, { nowMs: START_MS + 60_000 }).seen).toEqual([0, 1, 2, 3, 4]);
    dir.release();
  });

  it('reads a segment cut mid-write up to its last whole record, and cuts the torn end off', () => {
    const dir = openFabricHistoryDir(dataDir(), arDemo);
    const writer = new HistorySegments(dir, { retentionMs: HOUR_MS, maxBytes: 2 ** 30 });
    for (let f = 0; f < 4; f++) writer.append(frame(arDemo, f));
    // A crash: the segment is never finished.
    const file = join(dir.path, segmentFiles(dir)[0] as string);
    const whole = readFileSync(file);
    const { messages } = wholeMessages(whole);
    const last = messages.at(-1) as { start: number; end: number };
    expect(last.end).toBe(whole.byteLength);
    // Cuts inside the last record (marker, metadata length, metadata, body): every byte of its
    // head and tail, every 7th between (a record of format 2 is ~2 kB at ar-demo; each cut loads).
    const cuts = [];
    for (let cut = last.start + 1; cut < last.end; cut++)
      if (cut < last.start + 64 || cut > last.end - 32 || (cut - last.start) % 7 === 0) cuts.push(cut);
    for (const cut of cuts) {
      writeFileSync(file, whole.subarray(0, cut));
      const { seen, reports } = loadedFrames(dir, { nowMs: START_MS + 60_000 });
      expect(seen, `cut at ${cut}`).toEqual([0, 1, 2]);
      expect(reports).toEqual([]);
      expect(statSync(file).size).toBe(last.start);
    }
    // Inside the schema: nothing to read. Zeros past the end (what a crash can leave): ignored.
    writeFileSync(file, whole.subarray(0, 10));
    expect(loadedFrames(dir, { nowMs: START_MS + 60_000 }).seen).toEqual([]);
    writeFileSync(file, whole);
    appendFileSync(file, Buffer.alloc(300));
    expect(loadedFrames(dir, { nowMs: START_MS + 60_000 }).seen).toEqual([0, 1, 2, 3]);
    expect(statSync(file).size).toBe(whole.byteLength);
    dir.release();
  });

  it('is segmented by time; retention deletes whole segments, by time and by bytes', () => {
    const dir = openFabricHistoryDir(dataDir(), arDemo);
    const writer = new HistorySegments(dir, { retentionMs: 25_000, maxBytes: 2 ** 30, segmentMs: 10_000 });
    for (let f = 0; f < 60; f++) writer.append(frame(arDemo, f));
    // Windows of 10 s: 0–9, …, 50–59; those wholly before 59 − 25 s are gone.
    expect(segmentFiles(dir)).toEqual([
      'history-20261122T100030.000Z.arrows',
      'history-20261122T100040.000Z.arrows',
      'history-20261122T100050.000Z.arrows',
    ]);
    writer.close();
    // At start the retention counts from now: 30 s later the 30–39 window is gone too.
    const later = loadedFrames(dir, { nowMs: START_MS + 69_000, retentionMs: 25_000 });
    expect(later.seen).toEqual(Array.from({ length: 16 }, (_, i) => 44 + i));
    expect(segmentFiles(dir)).toHaveLength(2);

    // By bytes: a segment also ends at an eighth of the budget, and the oldest whole ones go first.
    const bytesDir = openFabricHistoryDir(dataDir(), arDemo);
    const maxBytes = 160_000;
    const bounded = new HistorySegments(bytesDir, { retentionMs: HOUR_MS, maxBytes, segmentMs: 10_000 });
    for (let f = 0; f < 120; f++) bounded.append(frame(arDemo, f));
    expect(bounded.bytes).toBeLessThanOrEqual(maxBytes);
    expect(bounded.bytes).toBeGreaterThan(0.75 * maxBytes);
    expect(segmentFiles(bytesDir).length).toBeGreaterThanOrEqual(8);
    const kept = loadedFrames(bytesDir, { nowMs: START_MS + 130_000 }).seen;
    expect(kept.at(-1)).toBe(119);
    expect(kept).toEqual(Array.from({ length: kept.length }, (_, i) => 120 - kept.length + i));
    bounded.close();
    dir.release();
    bytesDir.release();
  });

  it('belongs to its fabric: another topology has another directory and never reads this one', () => {
    const data = dataDir();
    const small = (hostsPerEdge: number) =>
      new LinkIndex(twoTierFatTree({ name: 'site', radix: 8, edgeCount: 2, coreCount: 2, hostsPerEdge }));
    const a = openFabricHistoryDir(data, small(2));
    const b = openFabricHistoryDir(data, small(3));
    expect(basename(a.path)).toMatch(/^site-[0-9a-f]{16}$/);
    expect(b.path).not.toBe(a.path);
    const writer = new HistorySegments(a, { retentionMs: HOUR_MS, maxBytes: 2 ** 30 });
    writer.append(frame(a.index, 0));
    writer.close();
    // A's segment put in B's directory (a copy by hand): skipped, with the reason.
    const [file] = segmentFiles(a);
    copyFileSync(join(a.path, file as string), join(b.path, file as string));
    const { seen, reports } = loadedFrames(b, { nowMs: START_MS + 60_000 });
    expect(seen).toEqual([]);
    expect(reports.join('\n')).toMatch(/the history of another fabric \(site\)/);
    a.release();
    b.release();
  });

  it('has one writer per fabric directory; a lock left by a process that is gone is taken over', () => {
    const data = dataDir();
    const dir = openFabricHistoryDir(data, arDemo);
    const lock = join(dir.path, 'lock');
    // Held by a running process (pid 1 always runs).
    writeFileSync(lock, '1\n');
    expect(() => openFabricHistoryDir(data, arDemo)).toThrow(HistoryDirBusyError);
    // Held by one that exited (kill -9 leaves its lock behind).
    const gone = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], {
      encoding: 'utf8',
    });
    writeFileSync(lock, `${gone.stdout}\n`);
    const again = openFabricHistoryDir(data, arDemo);
    expect(readFileSync(lock, 'utf8').trim()).toBe(String(process.pid));
    again.release();
    expect(readdirSync(dir.path)).not.toContain('lock');
  });

  it('takes its directory and bounds from the settings, and runs in memory where it cannot write', () => {
    expect(configFromEnv({})).toMatchObject({ dataDir: undefined, defaultDataDir: undefined });
    expect(configFromEnv({ HOME: '/home/ops' }).defaultDataDir).toBe('/home/ops/.local/state/fabscope');
    expect(configFromEnv({ HOME: '/home/ops', XDG_STATE_HOME: '/var/state' }).defaultDataDir).toBe(
      '/var/state/fabscope',
    );
    expect(configFromEnv({ FABSCOPE_DATA_DIR: 'state' }).dataDir).toBe(resolve('state'));
    expect(configFromEnv({ FABSCOPE_HISTORY_MAX_BYTES: '1073741824' }).historyMaxBytes).toBe(2 ** 30);
    expect(() => configFromEnv({ FABSCOPE_HISTORY_MAX_BYTES: '100' })).toThrow(/1048576\.\.1099511627776/);
    expect(() => configFromEnv({ FABSCOPE_HISTORY_MAX_BYTES: '1e9x' })).toThrow(ConfigError);
    // A data directory under a plain file cannot be made: the history stays in memory, said once.
    const file = join(dataDir(), 'not-a-directory');
    writeFileSync(file, '');
    const reports: string[] = [];
    expect(historyDirFor(join(file, 'state'), arDemo, (m) => reports.push(m))).toBeNull();
    expect(reports).toEqual([expect.stringMatching(/^history kept in memory only: ENOTDIR/)]);
    expect(historyDirFor(undefined, arDemo)).toBeNull();
  });

  it('reads a segment of format 1 with packets, errors and categories unknown, never 0', async () => {
    const dir = openFabricHistoryDir(dataDir(), arDemo);
    const old = new FrameCodec(dir.identity, '1');
    const frames = [0, 1, 2].map((f) => frame(arDemo, f));
    const parts = frames.map((f) => old.encode(f));
    writeFileSync(
      join(dir.path, 'history-20261122T100000.000Z.arrows'),
      Buffer.concat([parts[0]?.schema as Uint8Array, ...parts.map((p) => p.batch)]),
    );
    const got: StoredFrame[] = [];
    new HistorySegments(dir, { retentionMs: HOUR_MS, maxBytes: 2 ** 30, now: () => START_MS + 5000 }).load(
      (f) => got.push(f),
    );
    expect(got).toHaveLength(3);
    for (const f of got) {
      expect(Array.from(f.columns.packets).every((v) => v === RATE_UNKNOWN)).toBe(true);
      expect(f.columns.errors).toBeUndefined();
      expect(f.summary?.categories).toBeUndefined();
      expect(f.summary?.portsWithoutData).toBeUndefined();
    }
    dir.release();
    // Read by the store: the same instants with those fields unknown.
    const queries = new EmbeddedTimeQueries(
      {
        onScrape: () => () => undefined,
        rates: async () => ({ timeMs: 0, ok: true, lastSampleAgeSeconds: 0, ports: new Map() }),
        staleAfterMs: () => 3000,
      },
      arDemo,
      {
        intervalMs: 1000,
        historyDir: openFabricHistoryDir(dir.path.split('/history/')[0] as string, arDemo),
        now: () => START_MS + 5000,
      },
    );
    const at = await queries.linksAt(START_MS + 1500);
    expect(at.links[3]?.bytesPerSecond).not.toBeNull();
    expect(at.links.every((l) => l.packetsPerSecond === null && l.errorsPerSecond === null)).toBe(true);
    expect(at.links.every((l) => l.categories.integrity === null)).toBe(true);
    queries.close();
  });

  it('gives the embedded store its history and link state back after a restart', async () => {
    const data = dataDir();
    const downLink = 'edge1/3--core1/1';
    let down = false;
    const scrape = (listeners: Set<(d: ScrapeDone) => void>, timeMs: number) => {
      for (const l of listeners) l({ timeMs, resetPorts: [] });
    };
    const feedOf = (listeners: Set<(d: ScrapeDone) => void>) => ({
      onScrape: (l: (d: ScrapeDone) => void) => {
        listeners.add(l);
        return () => listeners.delete(l);
      },
      rates: async (): Promise<RatesSnapshot> => {
        const ports = new Map<string, PortRates>();
        arDemo.channels.forEach(({ fromKey, toKey, fixed }, c) => {
          const up = !(down && fixed.linkId === downLink);
          const rates = (bytes: number): PortRates => ({
            transmitBytesPerSecond: bytes,
            receiveBytesPerSecond: bytes,
            transmitPacketsPerSecond: bytes / 4096,
            receivePacketsPerSecond: bytes / 4096,
            transmitWaitTicksPerSecond: 0,
            transmitWaitTickSeconds: 1e-6,
            linkUp: up,
            errors: { symbolErrors: c === 0 ? 2.5 : 0, linkDowned: 0 },
          });
          ports.set(fromKey, rates(((c + 1) / 40) * fixed.capacityBytesPerSecond));
          if (!ports.has(toKey)) ports.set(toKey, rates(0));
        });
        return { timeMs: 0, ok: true, lastSampleAgeSeconds: 0, staleAfterSeconds: 3, ports };
      },
      staleAfterMs: () => 3000,
    });
    const now = { ms: START_MS };
    const open = (events: MemoryEventLog, listeners: Set<(d: ScrapeDone) => void>) => {
      const dir = openFabricHistoryDir(data, arDemo);
      const queries = new EmbeddedTimeQueries(feedOf(listeners), arDemo, {
        intervalMs: 1000,
        events,
        historyDir: dir,
        now: () => now.ms,
      });
      return { dir, queries };
    };

    const firstListeners = new Set<(d: ScrapeDone) => void>();
    const firstEvents = new MemoryEventLog();
    const first = open(firstEvents, firstListeners);
    for (let s = 0; s < 10; s++) {
      down = s >= 6;
      now.ms = START_MS + s * 1000;
      scrape(firstListeners, now.ms);
      await first.queries.settled();
    }
    const range = { fromMs: START_MS, toMs: START_MS + 9000, stepMs: 1000 };
    const ids = arDemo.channels.map((c) => c.fixed.id);
    const before = {
      range: await first.queries.linkRange(ids, range),
      at: await first.queries.linksAt(START_MS + 7500),
      summary: await first.queries.summaryRange(range),
    };
    expect(firstEvents.list(0, Number.POSITIVE_INFINITY).map((e) => e.detail)).toEqual(['link down']);
    // A link's error series is the ranking's errors/s of each instant, both ports read.
    const instant = { fromMs: START_MS + 5000, toMs: START_MS + 5000, stepMs: 1000 };
    const atFive = await first.queries.linksAt(START_MS + 5000);
    const errorsAt = new Map(atFive.links.map((l) => [l.id, l.errorsPerSecond]));
    const erringSeries = (await first.queries.linkRange(ids, instant)).map((s) => {
      expect(s.points[0]?.errorsPerSecond).toBe(errorsAt.get(s.id));
      return s.points[0]?.errorsPerSecond ?? 0;
    });
    expect(erringSeries.filter((e) => e > 0).length).toBeGreaterThan(0);
    // What /history/kept says: on disk, from the first scrape.
    expect(first.queries.kept()).toEqual({ seconds: 3600, oldestMs: START_MS, onDisk: true });
    // Packets, errors and categories are kept (packets to 0.034 %, the error readings exact).
    const first0 = before.at.links[0];
    const packets = first0?.packetsPerSecond as number;
    expect(Math.abs(packets / ((first0?.bytesPerSecond as number) / 4096) - 1)).toBeLessThan(1e-3);
    const erring = before.at.links.filter((l) => l.errors.symbolErrors === 2.5);
    expect(erring).toHaveLength(1);
    expect(erring[0]?.errorsPerSecond).toBe(2.5);
    expect(erring[0]?.categories.integrity).not.toBeNull();
    expect(before.at.links.filter((l) => l.errorsPerSecond === 0)).toHaveLength(arDemo.channels.length - 1);
    // A crash: no close, the segment unfinished, the lock left behind (with this pid).

    const secondListeners = new Set<(d: ScrapeDone) => void>();
    const secondEvents = new MemoryEventLog();
    now.ms = START_MS + 30_000;
    const second = open(secondEvents, secondListeners);
    expect(second.queries.loaded).toMatchObject({ frames: 10, segments: 1 });
    expect(await second.queries.linkRange(ids, range)).toEqual(before.range);
    expect(await second.queries.linksAt(START_MS + 7500)).toEqual(before.at);
    expect(await second.queries.summaryRange(range)).toEqual(before.summary);
    // The link is seen up again against the state read back: one event.
    down = false;
    scrape(secondListeners, now.ms);
    await second.queries.settled();
    expect(secondEvents.list(0, Number.POSITIVE_INFINITY)).toMatchObject([
      { kind: 'link-state', subject: downLink, detail: 'link up' },
    ]);
    second.queries.close();
    second.dir.release();
    first.queries.close();
  });
});
