// `npm run bench -- history-prometheus`: the API's history answers from a real Prometheus, against
// the raw PromQL they issue, at fat-tree-1152 and fat-tree-27648. Prometheus is started on a TSDB
// backfilled (`promtool tsdb create-blocks-from openmetrics`) with one hour of one link direction's
// series (the collector's rates at the edge) at the fabric's interval, and every other direction's
// series, wait ratio and link state at the instant of the snapshot (the index at full size).
// - one link over 1 h: PrometheusTimeQueries.linkRange (two query_range, aligned to the asked
//   instants) against the same two query_range answers fetched and parsed: ratio ≤ 1.5;
// - a time-travel snapshot (every direction at an instant: three instant queries) and the summary
//   at that instant (the collectors' bucket counts and host total, summed in the TSDB): reported.
import { execFile } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import {
  defaultSampleIntervalMs,
  LinkIndex,
  EDGE_SERIES as names,
  PrometheusTimeQueries,
  PromqlClient,
} from '@fabscope/api';
import { median } from '@fabscope/test-support';
import { buildScenario } from '@fabscope/topology';
import { startPrometheus } from '../src/prometheus/prometheus.ts';

const RATIO_LIMIT = 1.5;
const HOUR_MS = 3_600_000;

type End = { node: string; port: number };
const labelsOf = (index: LinkIndex, from: End, to: End) => {
  const node = (name: string) => index.fabric.nodeByName.get(name);
  return (
    // As the collector labels a direction: its sending port and both ends' types.
    `{fabric="f",node_guid="${node(from.node)?.guid}",node_type="${node(from.node)?.type}",` +
    `port="${from.port}",remote_node_type="${node(to.node)?.type}"}`
  );
};

/** OpenMetrics for promtool: the bench link's hour at `intervalMs`, every direction at `atMs`. */
async function writeBackfill(
  file: string,
  index: LinkIndex,
  benchId: string,
  fromMs: number,
  intervalMs: number,
  atMs: number,
) {
  const out = createWriteStream(file);
  const write = (text: string) =>
    out.write(text) ? Promise.resolve() : new Promise<void>((resolve) => out.once('drain', () => resolve()));
  for (const [name, value] of [
    [names.bytes, (u: number, cap: number) => u * cap],
    [names.utilization, (u: number) => u],
    [names.wait, (u: number) => u / 10],
    ['fabscope_port_link_up', () => 1],
  ] as const) {
    await write(`# TYPE ${name} gauge\n`);
    let lines = '';
    for (const { fixed } of index.channels) {
      const labels = labelsOf(index, fixed.from, fixed.to);
      const cap = fixed.capacityBytesPerSecond;
      if (fixed.id === benchId && name !== 'fabscope_port_link_up') {
        for (let t = fromMs; t <= fromMs + HOUR_MS; t += intervalMs)
          lines += `${name}${labels} ${value(((t / intervalMs) % 100) / 100, cap)} ${(t / 1000).toFixed(3)}\n`;
      } else {
        lines += `${name}${labels} ${value(0.5, cap)} ${(atMs / 1000).toFixed(3)}\n`;
      }
      if (lines.length > 1 << 20) {
        await write(lines);
        lines = '';
      }
    }
    await write(lines);
  }
  // What the collector writes of those at the instant: every direction at 50 % (bucket 5), every
  // other bucket 0, and the host total, so the summary reads the series the collector writes.
  const at = (atMs / 1000).toFixed(3);
  const isl = index.channels.filter((c) => c.fixed.kind === 'isl').length;
  const hostBytes = index.channels
    .filter((c) => index.fabric.nodeByName.get(c.fixed.from.node)?.type === 'host')
    .reduce((sum, c) => sum + 0.5 * c.fixed.capacityBytesPerSecond, 0);
  let buckets = `# TYPE ${names.directions} gauge\n`;
  for (const [kind, n] of [
    ['isl', isl],
    ['host', index.channels.length - isl],
  ] as const) {
    for (let b = 0; b < 10; b++)
      buckets += `${names.directions}{fabric="f",kind="${kind}",bucket="${b}"} ${b === 5 ? n : 0} ${at}\n`;
  }
  await write(
    `${buckets}# TYPE ${names.hostBytes} gauge\n${names.hostBytes}{fabric="f"} ${hostBytes} ${at}\n`,
  );
  await write('# EOF\n');
  await new Promise<void>((resolve, reject) =>
    out.end((error?: Error | null) => (error ? reject(error) : resolve())),
  );
}

let over = 0;
for (const scenario of ['fat-tree-1152', 'fat-tree-27648']) {
  const fabric = buildScenario(scenario);
  const index = new LinkIndex(fabric);
  const intervalMs = defaultSampleIntervalMs(fabric);
  const benchId = index.channels[Math.floor(index.channels.length / 3)]?.fixed.id as string;
  // Whole minutes, ending 15 min ago: well inside the retention, never in the head block.
  const fromMs = Math.floor((Date.now() - 75 * 60_000) / 60_000) * 60_000;
  const atMs = fromMs + HOUR_MS / 2;
  const work = await mkdtemp(join(tmpdir(), 'fabscope-bench-'));
  try {
    const file = join(work, 'backfill.om');
    let t = performance.now();
    await writeBackfill(file, index, benchId, fromMs, intervalMs, atMs);
    const prometheus = await startPrometheus({
      targets: ['127.0.0.1:9'],
      readyTimeoutMs: 120_000,
      beforeStart: async (dataDir) => {
        await promisify(execFile)('promtool', ['tsdb', 'create-blocks-from', 'openmetrics', file, dataDir], {
          maxBuffer: 1 << 24,
        });
      },
    });
    const backfillS = (performance.now() - t) / 1000;
    try {
      const client = new PromqlClient({ url: prometheus.url, timeoutMs: 60_000 });
      const queries = new PrometheusTimeQueries(client, index, {
        scrapeIntervalMs: intervalMs,
        staleAfterSeconds: Math.max(5, (3 * intervalMs) / 1000),
      });
      const held = `${Math.max(5000, 3 * intervalMs)}ms`;
      const range = { fromMs, toMs: fromMs + HOUR_MS, stepMs: intervalMs };
      const channel = index.channels.find((c) => c.fixed.id === benchId);
      const { from } = channel?.fixed ?? { from: { node: '', port: 0 } };
      const selector = `{node_guid="${index.fabric.nodeByName.get(from.node)?.guid}",port="${from.port}"}`;
      const raw = () =>
        Promise.all(
          [names.bytes, names.wait].map((name) =>
            client.queryRange(
              `max by (node_guid, port) (last_over_time(${name}${selector}[${held}]))`,
              range.fromMs,
              range.toMs,
              range.stepMs,
            ),
          ),
        );
      const api = () => queries.linkRange([benchId], range);
      const rawMs: number[] = [];
      const apiMs: number[] = [];
      let points = 0;
      // Alternating which goes first, so neither gains from the other's warm caches.
      const once = async (f: () => Promise<unknown>, into: number[]) => {
        t = performance.now();
        const value = await f();
        into.push(performance.now() - t);
        return value;
      };
      for (let i = 0; i < 21; i++) {
        if (i % 2 === 0) await once(raw, rawMs);
        const series = (await once(api, apiMs)) as Awaited<ReturnType<typeof api>>;
        if (i % 2 === 1) await once(raw, rawMs);
        points = series[0]?.points.filter((p) => p.bytesPerSecond !== null).length ?? 0;
      }
      const ratio = median(apiMs) / median(rawMs);
      t = performance.now();
      const summary = await queries.summaryAt(atMs + 1000);
      const summaryMs = performance.now() - t;
      t = performance.now();
      const at = await queries.linksAt(atMs + 1000);
      const snapshotMs = performance.now() - t;
      const known = at.links.filter((l) => l.utilization !== null).length;
      const counted = summary.histogram.isl.concat(summary.histogram.host).reduce((a, b) => a + b, 0);
      console.log(
        `${scenario} backfill (${index.channels.length} directions, 1 h of one) and Prometheus start: ${backfillS.toFixed(1)} s`,
      );
      console.log(
        `${scenario} Prometheus one link over 1 h (${points} points): API ${median(apiMs).toFixed(1)} ms, raw query_range ${median(rawMs).toFixed(1)} ms, ratio ${ratio.toFixed(2)} (limit ${RATIO_LIMIT})`,
      );
      console.log(
        `${scenario} Prometheus summary at an instant (sums of the collectors' buckets: ${counted} directions) ${summaryMs.toFixed(0)} ms`,
      );
      console.log(
        `${scenario} Prometheus every direction at an instant, which /links?time= ranks (${known}/${at.links.length} known, the live tick's queries at that time): ${snapshotMs.toFixed(0)} ms`,
      );
      // The summary counts every direction once, from the collectors' buckets.
      if (ratio > RATIO_LIMIT || points === 0 || counted !== index.channels.length) over++;
    } finally {
      await prometheus.stop();
    }
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}
console.log(`peak RSS (bench process): ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MiB`);
process.exit(over === 0 ? 0 : 1);
