import { median } from '@fabscope/test-support';
import { buildScenario, type Fabric } from '@fabscope/topology';
import { defaultSampleIntervalMs } from '../src/config.ts';
import { MemoryEventLog } from '../src/events/event-log.ts';
import { HealthWatch } from '../src/events/health-watch.ts';
import { compactTick } from '../src/lib/compact-tick.ts';
import { LinkIndex, linkDirectionStates, summarize } from '../src/lib/utilization.ts';
import { historyFrames, LinkHistory } from '../src/store/link-history.ts';
import { PortReadings } from '../src/store/port-readings.ts';
import { COUNTER_SEEN, FIELDS, LINK_UP, RATE, STAGED, WAIT_TICK } from '../src/store/scrape-staging.ts';
import { type PortRates, portKey, type RatesSnapshot } from '../src/store/types.ts';

// One sampling tick of the API — every link direction's utilization, the summary and the two
// stream encodings — on fabrics of 1152 and 27,648 hosts with every port reporting. This is the
// work the sampler does once per tick whatever the number of clients.
//
// And the whole of what one scrape of the embedded store costs the API's event loop after it is
// read: the sampler's tick (the store's rates over the live window, the directions, the summary,
// the compact stream message), the history's record (rates over the history's window, the
// directions and the summary again, the frame written) and the health watch over the tick.
const LIMITS_MS: Record<string, number> = { 'fat-tree-1152': 20, 'fat-tree-27648': 1000 };
/** The embedded store's live and history rate windows (embedded.ts defaults). */
const LIVE_WINDOW_MS = 2000;
const HISTORY_WINDOW_MS = 5000;

function randomOf(seed: number) {
  return () => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed / 2 ** 31;
  };
}

/** Every cabled port's rates, as the sampler's bench always took them (no error counters). */
function syntheticSnapshot(fabric: Fabric): RatesSnapshot {
  const ports = new Map<string, PortRates>();
  const random = randomOf(7);
  for (const node of fabric.nodes) {
    for (const port of node.ports) {
      if (!port || port.link < 0) continue;
      const bytes = random() * 12.375e9;
      ports.set(portKey(node.guid, port.number), {
        transmitBytesPerSecond: bytes,
        receiveBytesPerSecond: bytes,
        transmitPacketsPerSecond: bytes / 8192,
        receivePacketsPerSecond: bytes / 8192,
        transmitWaitTicksPerSecond: random() * 1e9,
        // One 8-byte flit at 100 Gb/s: ticks of up to 1e9/s wait up to 64 % of the time.
        transmitWaitTickSeconds: 6.4e-10,
        linkUp: true,
      });
    }
  }
  return { timeMs: Date.now(), ok: true, lastSampleAgeSeconds: 0.5, ports };
}

/**
 * The embedded store's readings of every cabled port after `scrapes` scrapes `intervalMs` apart,
 * every counter the collector serves (data, packets, XmitWait, the error counters, the gauges)
 * committed as a scrape commits them: rates come from the store's own code.
 */
function filledReadings(fabric: Fabric, intervalMs: number, startMs: number): PortReadings {
  const depth = Math.min(16, Math.max(3, Math.ceil(HISTORY_WINDOW_MS / intervalMs) + 2));
  const readings = new PortReadings(depth);
  const random = randomOf(11);
  const slots: { slot: number; bytesPerSecond: number; waitPerSecond: number }[] = [];
  for (const node of fabric.nodes) {
    for (const port of node.ports) {
      if (!port || port.link < 0) continue;
      slots.push({
        slot: readings.slotOf(portKey(node.guid, port.number)),
        bytesPerSecond: random() * 12.375e9,
        waitPerSecond: random() * 1e9,
      });
    }
  }
  const errorsFrom = FIELDS.indexOf('symbolErrors');
  const lqi = FIELDS.indexOf('linkQualityIndicator');
  for (let s = 0; s < depth; s++) {
    const timeMs = startMs + s * intervalMs;
    const seconds = (s * intervalMs) / 1000;
    for (const { slot, bytesPerSecond, waitPerSecond } of slots) {
      const at = slot * STAGED;
      const staged = readings.stagedValue;
      staged.fill(Number.NaN, at, at + STAGED);
      staged[at] = Math.round(bytesPerSecond * seconds);
      staged[at + 1] = Math.round(bytesPerSecond * seconds);
      staged[at + 2] = Math.round((bytesPerSecond / 8192) * seconds);
      staged[at + 3] = Math.round((bytesPerSecond / 8192) * seconds);
      staged[at + 4] = Math.round(waitPerSecond * seconds);
      for (let f = errorsFrom; f < FIELDS.length; f++) staged[at + f] = 0;
      staged[at + lqi] = 5;
      staged[at + RATE] = 12.5e9;
      staged[at + WAIT_TICK] = 6.4e-10;
      staged[at + LINK_UP] = 1;
      staged[at + COUNTER_SEEN] = 1;
      readings.commit(slot, timeMs);
    }
  }
  return readings;
}

const HEALTH = { status: 'ok' as const, store: 'embedded' as const, lastSampleAgeSeconds: 0.5 };

/** The per-scrape work as the API did it before frames: objects, twice. Phase times in ms. */
function objectScrape(
  index: LinkIndex,
  readings: PortReadings,
  history: LinkHistory,
  watch: HealthWatch,
  nowMs: number,
  staleAfterMs: number,
  /** When the history records the frame (after the newest one). */
  frameMs: number,
) {
  const times: Record<string, number> = {};
  let t = performance.now();
  const snapshot: RatesSnapshot = {
    timeMs: nowMs,
    ok: true,
    lastSampleAgeSeconds: 0.5,
    ports: readings.rates(nowMs, staleAfterMs, LIVE_WINDOW_MS).ports,
  };
  times.rates = performance.now() - t;
  t = performance.now();
  const links = linkDirectionStates(index, snapshot);
  const summary = summarize(index, links, snapshot.timeMs, snapshot);
  const tick = { time: summary.time, health: HEALTH, summary, links };
  times.tick = performance.now() - t;
  t = performance.now();
  const bytes = JSON.stringify(compactTick(tick)).length;
  times.compact = performance.now() - t;
  t = performance.now();
  watch.observe(nowMs, links, snapshot.ports);
  times.watch = performance.now() - t;
  // embedded-history.ts record(): the rates over its own window, the directions and summary again.
  t = performance.now();
  const again: RatesSnapshot = {
    timeMs: nowMs,
    ok: true,
    lastSampleAgeSeconds: 0.5,
    ports: readings.rates(nowMs, staleAfterMs, HISTORY_WINDOW_MS).ports,
  };
  const states = linkDirectionStates(index, again);
  history.record(frameMs, states, summarize(index, states, frameMs));
  times.record = performance.now() - t;
  times.total = times.rates + times.tick + times.compact + times.watch + times.record;
  return { times, bytes };
}

let over = 0;
for (const scenario of Object.keys(LIMITS_MS)) {
  const fabric = buildScenario(scenario);
  const index = new LinkIndex(fabric);
  const snapshot = syntheticSnapshot(fabric);
  const compute: number[] = [];
  const full: number[] = [];
  const compact: number[] = [];
  let fullBytes = 0;
  let compactBytes = 0;
  for (let i = 0; i < 7; i++) {
    let t = performance.now();
    const links = linkDirectionStates(index, snapshot);
    const summary = summarize(index, links, snapshot.timeMs);
    const tick = { time: summary.time, health: HEALTH, summary, links };
    compute.push(performance.now() - t);
    t = performance.now();
    fullBytes = JSON.stringify(tick).length;
    full.push(performance.now() - t);
    t = performance.now();
    compactBytes = JSON.stringify(compactTick(tick)).length;
    compact.push(performance.now() - t);
  }
  const tickMs = median(compute) + median(compact);
  const limit = LIMITS_MS[scenario] as number;
  console.log(
    `${scenario} link states + summary (${index.channels.length} directions): ${median(compute).toFixed(2)} ms`,
  );
  console.log(
    `${scenario} full stream message: ${median(full).toFixed(2)} ms, ${(fullBytes / 1e6).toFixed(2)} MB`,
  );
  console.log(
    `${scenario} compact stream message: ${median(compact).toFixed(2)} ms, ${(compactBytes / 1e6).toFixed(2)} MB`,
  );
  console.log(
    `${scenario} sampler tick (states + summary + compact): ${tickMs.toFixed(2)} ms (limit ${limit} ms)`,
  );
  if (tickMs > limit) over++;

  // The whole per-scrape cost on the API's loop, from the store's readings.
  const intervalMs = defaultSampleIntervalMs(fabric);
  const startMs = Date.UTC(2026, 10, 22, 10, 0, 0);
  const readings = filledReadings(fabric, intervalMs, startMs);
  const depth = readings.depth;
  const nowMs = startMs + (depth - 1) * intervalMs + 50;
  const staleAfterMs = Math.max(5000, 2.5 * intervalMs);
  const history = new LinkHistory(index.channels.length, historyFrames(index.channels.length, intervalMs));
  const watch = new HealthWatch(new MemoryEventLog(), index);
  const runs: Record<string, number>[] = [];
  for (let i = 0; i < 7; i++)
    runs.push(
      objectScrape(index, readings, history, watch, nowMs, staleAfterMs, nowMs + i * intervalMs).times,
    );
  const phase = (name: string) => median(runs.map((r) => r[name] as number));
  console.log(
    `${scenario} per scrape, objects (as before frames): rates ${phase('rates').toFixed(0)} ms, ` +
      `states + summary ${phase('tick').toFixed(0)} ms, compact ${phase('compact').toFixed(0)} ms, ` +
      `health watch ${phase('watch').toFixed(0)} ms, history record ${phase('record').toFixed(0)} ms`,
  );
  console.log(`${scenario} per scrape on the API's loop, objects: ${phase('total').toFixed(1)} ms`);
}
console.log(`peak RSS: ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MiB`);
process.exit(over === 0 ? 0 : 1);
