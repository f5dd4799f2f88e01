import type { LinkDirectionState } from '@fabscope/contracts';
import { median } from '@fabscope/test-support';
import { buildScenario, CATEGORY_NAMES } from '@fabscope/topology';
import { defaultSampleIntervalMs } from '../src/config.ts';
import { compactFrame } from '../src/lib/compact-tick.ts';
import { UNKNOWN_CATEGORIES, UNKNOWN_ERRORS } from '../src/lib/link-errors.ts';
import { LinkIndex } from '../src/lib/link-index.ts';
import { channelsOf, RankedLinks } from '../src/lib/link-order.ts';
import { summarizeFrame } from '../src/lib/summary.ts';
import { EmbeddedTimeQueries } from '../src/store/embedded-history.ts';
import { directionState, frameFromStates, recordStates, summarize } from '../test/oracles/object-path.ts';
import { TOP_RANKINGS } from '../test/oracles/rankings.ts';

// The embedded store's history at fabric scale, filled with one hour of frames at the sampling
// interval of each size (1 s at 1152 hosts, 10 s at 27,648): the history of one link over the
// hour, a time-travel snapshot (every link direction and the summary at an instant, serialized as
// the API answers), the summary over the hour, and the memory the frames take. And the past
// instant as the dashboard fetches it (`GET /instant`, the compact stream encoding) against one
// live compact stream message of the same directions: its bytes at most 1.1 × (BYTES_LIMIT), its
// top the head of `/links?sort=…&time=` for every sort the top carries.
const BYTES_LIMIT = 1.1;
const LIMITS = {
  'fat-tree-1152': { linkHourMs: 100, snapshotMs: 1000 },
  'fat-tree-27648': { linkHourMs: 100, snapshotMs: 1000 },
} as const;
const HOUR_MS = 3_600_000;

async function timedAsync(runs: number, f: () => Promise<unknown>): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    await f();
    times.push(performance.now() - t);
  }
  return median(times);
}

let over = 0;
for (const [scenario, limits] of Object.entries(LIMITS)) {
  const fabric = buildScenario(scenario);
  const index = new LinkIndex(fabric);
  const intervalMs = defaultSampleIntervalMs(fabric);
  const rssBefore = process.memoryUsage().rss;
  // A feed that never scrapes: the frames are written below, as a scrape would write them.
  const queries = new EmbeddedTimeQueries(
    {
      onScrape: () => () => undefined,
      rates: async () => ({ timeMs: 0, ok: true, lastSampleAgeSeconds: 0, ports: new Map() }),
      staleAfterMs: () => 3 * intervalMs,
    },
    index,
    { intervalMs },
  );
  const start = Date.UTC(2026, 10, 22, 10, 0, 0);
  const frames = Math.floor(HOUR_MS / intervalMs) + 1;
  let seed = 7;
  const random = () => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed / 2 ** 31;
  };
  const states: LinkDirectionState[] = index.channels.map(({ fixed }) =>
    directionState(fixed, {
      bytesPerSecond: 0,
      packetsPerSecond: null,
      transmitWaitTicksPerSecond: null,
      transmitWaitFraction: 0,
      linkUp: true,
      errors: UNKNOWN_ERRORS,
      categories: UNKNOWN_CATEGORIES,
    }),
  );

  const fillStarted = performance.now();
  for (let f = 0; f < frames; f++) {
    // A tenth of the directions change per frame (the rest carry on), as traffic shifts.
    for (let k = 0; k < states.length; k += 1 + Math.floor(random() * 19)) {
      const s = states[k] as LinkDirectionState;
      s.utilization = random();
      s.bytesPerSecond = s.utilization * s.capacityBytesPerSecond;
      s.transmitWaitFraction = random() * 0.2;
      s.packetsPerSecond = s.bytesPerSecond / (256 + random() * 4096);
    }
    const timeMs = start + f * intervalMs;
    recordStates(queries.history, index, timeMs, states, summarize(index, states, timeMs));
  }
  const fillMs = performance.now() - fillStarted;
  const rssAfter = process.memoryUsage().rss;
  const id = index.channels[Math.floor(index.channels.length / 3)]?.fixed.id as string;
  const hour = { fromMs: start, toMs: start + HOUR_MS, stepMs: intervalMs };
  const linkHourMs = await timedAsync(7, () => queries.linkRange([id], hour));
  const summaryHourMs = await timedAsync(7, () => queries.summaryRange(hour));
  // As the API answers `links?time=T&limit=100` and `summary?time=T` (the dashboard's ranking and
  // totals at that instant), and the whole of `links?time=T` serialized.
  const at = start + HOUR_MS / 2 + 123;
  // A new instant each run: a past instant's frame is made on its first ask (then kept, 4 of them).
  let asked = 0;
  // The route ranks the instant's frame (RankedLinks over its rows: objects for the page only).
  const snapshotMs = await timedAsync(5, async () => {
    const t = at + intervalMs * asked++;
    const frame = await queries.frameAt(t);
    const rows = { frame, channels: channelsOf(frame, undefined, null) };
    const page = new RankedLinks(frame.index, rows, 'utilization', 'desc').slice(0, 100);
    return JSON.stringify({ links: page, summary: await queries.summaryAt(t) }).length;
  });
  let fullBytes = 0;
  const fullMs = await timedAsync(3, async () => {
    fullBytes = JSON.stringify(await queries.linksAt(at)).length;
  });
  const points = (await queries.linkRange([id], hour))[0]?.points.length;
  // The last frame written is the instant `at` stands for at the end of the hour: compare the past
  // answer of the newest frame with the live message its directions made.
  const lastMs = start + (frames - 1) * intervalMs;
  const health = {
    status: 'ok',
    store: 'embedded',
    lastSampleAgeSeconds: null,
    intervalMs,
    staleAfterSeconds: 30,
  };
  const liveFrame = frameFromStates(index, states, lastMs);
  const liveTime = new Date(lastMs).toISOString();
  const liveBytes = JSON.stringify(
    compactFrame({ time: liveTime, health, summary: summarizeFrame(liveFrame, true) }, liveFrame),
  ).length;
  let pastBytes = 0;
  let pastTop: LinkDirectionState[] = [];
  let back = 3;
  const pastMs = await timedAsync(3, async () => {
    // The last run asks the last instant, whose bytes are compared; each run a new instant.
    const t = lastMs - intervalMs * --back;
    const [frame, summary] = await Promise.all([queries.frameAt(t), queries.summaryAt(t)]);
    const message = compactFrame({ time: liveTime, health, summary }, frame);
    pastTop = message.top;
    pastBytes = JSON.stringify(message).length;
  });
  // The top, ranked per kind by each of TOP_RANKINGS, is /links's first page of that sort and kind.
  const pastFrame = await queries.frameAt(lastMs);
  let topsEqual = true;
  for (const kind of ['isl', 'host'] as const) {
    for (const [k, sort] of (['utilization', 'transmitWaitFraction', ...CATEGORY_NAMES] as const).entries()) {
      const ranked = new RankedLinks(
        pastFrame.index,
        { frame: pastFrame, channels: channelsOf(pastFrame, kind, null) },
        sort,
        'desc',
      );
      const page = ranked.slice(0, 50).map((l) => l.id);
      const fromTop = pastTop
        .filter((l) => l.kind === kind)
        .sort(TOP_RANKINGS[k])
        .slice(0, 50)
        .map((l) => l.id);
      if (page.join() !== fromTop.join()) {
        topsEqual = false;
        console.log(`${scenario} top by ${sort} (${kind}) differs from /links`);
      }
    }
  }
  console.log(
    `${scenario} history: ${frames} frames × ${index.channels.length} directions at ${intervalMs / 1000} s, ` +
      `${(queries.history.bytes / 1e6).toFixed(0)} MB of frames, RSS +${((rssAfter - rssBefore) / 1e6).toFixed(0)} MB, filled in ${(fillMs / 1000).toFixed(1)} s`,
  );
  console.log(
    `${scenario} one link over 1 h (${points} points): ${linkHourMs.toFixed(2)} ms (limit ${limits.linkHourMs} ms)`,
  );
  console.log(`${scenario} summary over 1 h: ${summaryHourMs.toFixed(2)} ms`);
  console.log(
    `${scenario} time-travel snapshot (an instant's first ask: every direction ranked, top 100 and summary serialized): ${snapshotMs.toFixed(0)} ms (limit ${limits.snapshotMs} ms)`,
  );
  console.log(
    `${scenario} every direction at an instant, serialized: ${fullMs.toFixed(0)} ms, ${(fullBytes / 1e6).toFixed(1)} MB`,
  );
  const ratio = pastBytes / liveBytes;
  console.log(
    `${scenario} past instant as the dashboard fetches it (GET /instant, compact): ${(pastBytes / 1e6).toFixed(2)} MB in ${pastMs.toFixed(0)} ms; ` +
      `one live compact stream message: ${(liveBytes / 1e6).toFixed(2)} MB; past ÷ live ${ratio.toFixed(3)} (limit ${BYTES_LIMIT}); ` +
      `top = /links?sort=…&time= for every sort: ${topsEqual ? 'yes' : 'NO'}`,
  );
  if (linkHourMs > limits.linkHourMs || snapshotMs > limits.snapshotMs) over++;
  if (ratio > BYTES_LIMIT || !topsEqual) over++;
  queries.close();
}
console.log(`peak RSS: ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MiB`);
process.exit(over === 0 ? 0 : 1);
