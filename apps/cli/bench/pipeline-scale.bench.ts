// `npm run bench -- pipeline-scale`: the live pipeline of `fabscope demo` (emulator → fabric
// collector → embedded store → sampler) at fat-tree-6912 and fat-tree-27648 with a permutation
// running, in two child processes per fabric:
// - stages: the real pieces in one process on loopback, each stage of one scrape timed (median of
//   a few): the emulator's /v1/ports, the collector's read and exposition, the store's transfer,
//   streaming parse and ingest, the sampler's tick;
// - live: `startDemo` itself at the default interval for the fabric (FABSCOPE_SAMPLE_INTERVAL_MS
//   unset), driven over HTTP as a user would (POST a permutation, poll /health and /summary), and
//   the peak RSS of that whole demo process.
// - prometheus (with FABSCOPE_BENCH_PROMETHEUS=1, or as `… <fabric> prometheus`): `startDemo` with a real Prometheus (scrape interval by size, collector shards,
//   the collectors' rates at the edge, the alert rules), the same permutation and polls for FABSCOPE_BENCH_LIVE_SECONDS (default 300
//   after warm-up), Prometheus' own scrape durations and resident memory beside the demo's RSS.
// Prints `name: value unit (limit …)`; exits non-zero when a figure misses its limit.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { configFromEnv, defaultSampleIntervalMs, EmbeddedStore, LinkIndex, Sampler } from '@fabscope/api';
import {
  createFabricRegistry,
  emulatorSource,
  portExpositionChunks,
  startMetricsServer,
} from '@fabscope/collectors';
import { createEmulator, startEmulatorServer } from '@fabscope/emulator';
import { benchReporter, median } from '@fabscope/test-support';
import { buildScenario, routingFor } from '@fabscope/topology';
import { prometheusIntervalFor, startDemo } from '../src/demo.ts';

interface Limits {
  /** One store scrape (collector read + exposition + transfer + parse + ingest), ms. */
  scrapeMs: number;
  /** One sampler tick (rates + link states + summary), ms. */
  tickMs: number;
  /** Peak RSS of the whole demo process, MiB. */
  rssMiB: number;
}
const LIMITS: Record<string, Limits> = {
  'fat-tree-6912': { scrapeMs: 1600, tickMs: 250, rssMiB: 1024 },
  'fat-tree-27648': { scrapeMs: 8000, tickMs: 1000, rssMiB: 2048 },
};

const [scenario, mode] = process.argv.slice(2);
if (scenario === undefined) {
  // The parent: one child per fabric and mode.
  let failed = 0;
  for (const name of Object.keys(LIMITS)) {
    // The Prometheus path is opt-in (FABSCOPE_BENCH_PROMETHEUS=1): minutes per fabric, and not yet
    // within its limits on a 2-core machine (docs/scaling.md).
    const modes =
      process.env.FABSCOPE_BENCH_PROMETHEUS === '1' ? ['stages', 'live', 'prometheus'] : ['stages', 'live'];
    for (const m of modes) {
      console.log(`\n## ${name} ${m}`);
      const run = spawnSync(
        process.execPath,
        ['--expose-gc', '--import', 'tsx', fileURLToPath(import.meta.url), name, m],
        { stdio: 'inherit' },
      );
      if (run.status !== 0) failed++;
    }
  }
  process.exit(failed === 0 ? 0 : 1);
}

const limits = LIMITS[scenario];
const bench = benchReporter(`${scenario} `, 0);
const { report } = bench;
const gc = (globalThis as { gc?: () => void }).gc ?? (() => undefined);

async function time<T>(fn: () => T | Promise<T>): Promise<[number, T]> {
  const started = performance.now();
  const value = await fn();
  return [performance.now() - started, value];
}

async function stage<T>(name: string, runs: number, fn: () => T | Promise<T>, limit?: number): Promise<T> {
  const times: number[] = [];
  let value: T | undefined;
  for (let i = 0; i < runs; i++) {
    gc();
    const [ms, v] = await time(fn);
    times.push(ms);
    value = v;
  }
  report(name, median(times), 'ms', limit);
  return value as T;
}

const fabric = buildScenario(scenario);
const intervalMs = defaultSampleIntervalMs(fabric);
console.log(
  `${scenario}: ${fabric.nodes.length} nodes, ${fabric.links.length * 2} ports; default interval ${intervalMs} ms`,
);
if (mode === 'live') await live();
else if (mode === 'prometheus') await livePrometheus();
else await stages();
process.exit(bench.failed === 0 ? 0 : 1);

async function stages(): Promise<void> {
  const runs = scenario === 'fat-tree-27648' ? 3 : 5;
  const routing = routingFor('fattree');
  const emulator = createEmulator({
    fabric,
    tables: routing(fabric),
    routing,
    seed: 1,
    startTimeMs: Date.now(),
  });
  emulator.startFlows({ pattern: 'permutation', seed: 7 });
  const emulatorServer = await startEmulatorServer(emulator);
  const source = emulatorSource(emulatorServer.url);
  const registry = createFabricRegistry({ source });
  const collector = await startMetricsServer(registry.scrapeChunks);
  const store = new EmbeddedStore({ targets: [collector.url], scrapeIntervalMs: intervalMs });
  const sampler = new Sampler(store, new LinkIndex(fabric), intervalMs);
  try {
    // --- the emulator's /v1/ports ----------------------------------------------------------
    let jsonBytes = 0;
    await stage('emulator /v1/ports JSON written (counters read + text)', runs, () => {
      jsonBytes = emulator.portCountersJson().reduce((n, c) => n + c.length, 0);
    });
    report('emulator /v1/ports size', jsonBytes / 1e6, 'MB', undefined, 1);
    await stage('GET /v1/ports over HTTP, as JSON (write + transfer + JSON.parse)', runs, async () =>
      (await fetch(`${emulatorServer.url}/v1/ports`)).json(),
    );

    // --- the collector -----------------------------------------------------------------------
    const snapshot = await stage('collector source read (GET /v1/ports → port samples)', runs, () =>
      source.read(AbortSignal.timeout(60_000)),
    );
    await store.scrapeOnce();
    const url = new URL(store.stats().targets[0]?.url ?? collector.url);
    const names = new Set(url.searchParams.getAll('name[]'));
    for (const [what, selection] of [
      ['every family', undefined],
      [`the ${names.size} families the store reads`, names],
    ] as const) {
      let bytes = 0;
      await stage(`collector exposition write, ${what}`, runs, () => {
        bytes = 0;
        for (const chunk of portExpositionChunks(snapshot, selection)) bytes += chunk.length;
      });
      report(`collector exposition size, ${what}`, bytes / 1e6, 'MB', undefined, 0);
    }
    await stage(
      'GET /metrics as the store asks for it, drained (collector read + exposition + transfer)',
      runs,
      async () => {
        const response = await fetch(url);
        let n = 0;
        for await (const chunk of response.body as AsyncIterable<Uint8Array>) n += chunk.length;
        return n;
      },
    );

    // --- the embedded store and the sampler ------------------------------------------------
    const storeTimes = { headers: [] as number[], body: [] as number[], ingest: [] as number[] };
    await stage(
      'store scrape (collector read + exposition + transfer + streaming parse + ingest)',
      runs,
      async () => {
        await store.scrapeOnce();
        const target = store.stats().targets[0];
        if (!target || target.error) throw new Error(`store scrape failed: ${target?.error}`);
        storeTimes.headers.push(target.headersMs);
        storeTimes.body.push(target.bodyMs);
        storeTimes.ingest.push(target.ingestMs);
      },
      limits?.scrapeMs,
    );
    report(
      '  store: request → response headers (the collector read its source)',
      median(storeTimes.headers),
      'ms',
    );
    report('  store: body (exposition written, sent, parsed as it streams)', median(storeTimes.body), 'ms');
    report('  store: ingest (label sets → ports, histories)', median(storeTimes.ingest), 'ms');
    const { timing } = store.stats();
    console.log(
      `${scenario} store timing at ${intervalMs} ms: period ${timing.periodMs} ms, timeout ${timing.timeoutMs} ms, stale after ${timing.staleAfterMs} ms`,
    );
    const tick = await stage(
      'sampler tick (rates + link states + summary)',
      runs,
      () => sampler.sample(),
      limits?.tickMs,
    );
    const unknown = tick.links.filter((l) => l.kind === 'host' && l.utilization === null).length;
    report('host-link directions with unknown utilization', unknown, 'directions', 0);
    report('peak RSS of the stages process', process.resourceUsage().maxRSS / 1024, 'MiB');
  } finally {
    await sampler.stop();
    await store.close();
    await collector.close();
    await emulatorServer.close();
  }
}

async function live(): Promise<void> {
  const config = { ...configFromEnv({ FABSCOPE_SCENARIO: scenario }), port: 0 };
  const started = performance.now();
  const demo = await startDemo({ config, webRoot: '/nonexistent' });
  console.log(`${scenario} demo started in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  // biome-ignore lint/suspicious/noExplicitAny: JSON answers are read field by field
  const api = async (path: string, init?: RequestInit): Promise<any> =>
    (await fetch(`${demo.apiUrl}/api/v1${path}`, init)).json();
  try {
    await api('/traffic', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ pattern: 'permutation', seed: 7 }),
    });
    // Warm up: two scrapes after the traffic started, so every rate spans traffic.
    await new Promise((resolve) => setTimeout(resolve, 3 * intervalMs + 2000));
    const liveMs = Math.max(6 * intervalMs, 30_000);
    const ages: number[] = [];
    let degraded = 0;
    let unknownRate = 0;
    const until = Date.now() + liveMs;
    while (Date.now() < until) {
      await new Promise((resolve) => setTimeout(resolve, 1000));
      const health = await api('/health');
      const summary = await api('/summary');
      if (health.status !== 'ok') degraded++;
      if (summary.hostTransmitBytesPerSecond === null) unknownRate++;
      ages.push(health.lastSampleAgeSeconds ?? Number.POSITIVE_INFINITY);
    }
    const hostLinks = (await api('/links?kind=host')).links as { utilization: number | null }[];
    const unknown = hostLinks.filter((l) => l.utilization === null).length;
    const busy = hostLinks.filter((l) => (l.utilization ?? 0) > 0.5).length;
    const stats = (demo.api.store as EmbeddedStore).stats();
    console.log(
      `${scenario} live ${(liveMs / 1000).toFixed(0)} s at ${intervalMs} ms: ${ages.length} polls of /health and /summary; ` +
        `scrapes ${stats.recentDurationMs?.toFixed(0)} ms (longest of the last 5), ${stats.skippedTicks} ticks skipped; ` +
        `${busy} of ${hostLinks.length} host-link directions over 50 %`,
    );
    report('live polls with health degraded', degraded, 'polls', 0);
    report('live polls with the host transmit rate unknown', unknownRate, 'polls', 0);
    report('live newest-sample age (max)', Math.max(...ages), 's', undefined, 1);
    report('live host-link directions with unknown utilization', unknown, 'directions', 0);
    report(
      'live scrape duration (longest of the last 5)',
      stats.recentDurationMs ?? Number.NaN,
      'ms',
      limits?.scrapeMs,
    );
  } finally {
    await demo.stop();
  }
  report('peak RSS of the whole demo process', process.resourceUsage().maxRSS / 1024, 'MiB', limits?.rssMiB);
}

async function livePrometheus(): Promise<void> {
  // FABSCOPE_SAMPLE_INTERVAL_MS overrides the interval the demo chooses by size (prometheusIntervalFor).
  const config = {
    ...configFromEnv({
      FABSCOPE_SCENARIO: scenario,
      FABSCOPE_SAMPLE_INTERVAL_MS: process.env.FABSCOPE_SAMPLE_INTERVAL_MS,
    }),
    port: 0,
  };
  const started = performance.now();
  // FABSCOPE_BENCH_SLOW_JOB=0 or 1: without or with the raw-counter job, whatever the demo
  // chooses by size (prometheusRawJobFor).
  const slowJob = process.env.FABSCOPE_BENCH_SLOW_JOB;
  const demo = await startDemo({
    config,
    webRoot: '/nonexistent',
    prometheus: true,
    ...(slowJob === undefined ? {} : { prometheusSlowJob: slowJob !== '0' }),
  });
  console.log(
    `${scenario} demo with Prometheus started in ${((performance.now() - started) / 1000).toFixed(1)} s, ` +
      `${demo.collectorUrls.length} collector shards`,
  );
  // biome-ignore lint/suspicious/noExplicitAny: JSON answers are read field by field
  const api = async (path: string, init?: RequestInit): Promise<any> =>
    (await fetch(`${demo.apiUrl}/api/v1${path}`, { ...init, signal: AbortSignal.timeout(60_000) })).json();
  /** Lines of Prometheus' own /metrics whose name is `name`: labels and value. */
  const ownMetrics = async (name: string): Promise<{ labels: string; value: number }[]> => {
    const text = await (await fetch(new URL('/metrics', demo.prometheusUrl))).text();
    return [...text.matchAll(new RegExp(`^${name}\\{([^}]*)\\} (\\S+)$`, 'gm'))].map((m) => ({
      labels: m[1] ?? '',
      value: Number(m[2]),
    }));
  };
  /** Prometheus' own resident memory, from its /metrics (it need not scrape itself). */
  const prometheusRss = async (): Promise<number | undefined> => {
    const text = await (await fetch(new URL('/metrics', demo.prometheusUrl))).text().catch(() => '');
    const value = Number(/^process_resident_memory_bytes (\S+)$/m.exec(text)?.[1]);
    return Number.isFinite(value) ? value : undefined;
  };
  const promql = async (query: string): Promise<number[]> => {
    const url = new URL('/api/v1/query', demo.prometheusUrl);
    url.searchParams.set('query', query);
    const answer = (await (await fetch(url)).json()) as { data?: { result: { value: [number, string] }[] } };
    return (answer.data?.result ?? []).map((r) => Number(r.value[1]));
  };
  try {
    await api('/traffic', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ pattern: 'permutation', seed: 7 }),
    });
    // Warm up: a sweep or two after the traffic started.
    const promIntervalMs = config.sampleIntervalMs ?? prometheusIntervalFor(fabric.links.length * 2);
    await new Promise((resolve) => setTimeout(resolve, 6 * promIntervalMs + 5000));
    const liveMs = Number(process.env.FABSCOPE_BENCH_LIVE_SECONDS ?? 300) * 1000;
    const ages: number[] = [];
    let degraded = 0;
    let unknownRate = 0;
    let polls = 0;
    const answerMs: number[] = [];
    const statuses = new Map<string, number>();
    let promRssPeak = 0;
    const sampler = demo.api.sampler;
    const ticksBefore = sampler.tickCount;
    const skippedBefore = sampler.skippedTicks;
    const liveStarted = Date.now();
    const until = liveStarted + liveMs;
    while (Date.now() < until) {
      await new Promise((resolve) => setTimeout(resolve, 2000));
      const t = performance.now();
      const health = await api('/health').catch(() => ({ status: 'timeout' }));
      const summary = await api('/summary').catch(() => ({ hostTransmitBytesPerSecond: null }));
      const ms = performance.now() - t;
      answerMs.push(ms);
      polls++;
      if (health.status !== 'ok') degraded++;
      if (summary.hostTransmitBytesPerSecond === null) unknownRate++;
      ages.push(health.lastSampleAgeSeconds ?? Number.POSITIVE_INFINITY);
      statuses.set(health.status, (statuses.get(health.status) ?? 0) + 1);
      const rss = await prometheusRss();
      if (rss !== undefined) promRssPeak = Math.max(promRssPeak, rss);
      // The timeline: health, newest data age and answer time every poll.
      console.log(
        `  t=${((Date.now() - liveStarted) / 1000).toFixed(0)} s ${health.status} age ${health.lastSampleAgeSeconds ?? '–'} s, ` +
          `/health + /summary ${ms.toFixed(0)} ms, host ${summary.hostTransmitBytesPerSecond === null ? 'unknown' : `${(summary.hostTransmitBytesPerSecond / 1e9).toFixed(0)} GB/s`}, ` +
          `Prometheus RSS ${rss === undefined ? '?' : (rss / 2 ** 20).toFixed(0)} MiB, demo RSS ${(process.memoryUsage().rss / 2 ** 20).toFixed(0)} MiB` +
          (health.error ? ` (${health.error})` : ''),
      );
    }
    const ranked = performance.now();
    await api('/links?limit=100&sort=utilization');
    const rankedMs = performance.now() - ranked;
    const ruleSeconds = await ownMetrics('prometheus_rule_group_last_duration_seconds');
    const queryQuantiles = (await ownMetrics('prometheus_engine_query_duration_seconds')).filter((q) =>
      q.labels.includes('quantile="0.9"'),
    );
    const hostLinks = (await api('/links?kind=host')).links as { utilization: number | null }[];
    const unknown = hostLinks.filter((l) => l.utilization === null).length;
    const scrape = await promql('max(scrape_duration_seconds{job="fabscope-fabric"})');
    const samples = await promql('sum(scrape_samples_scraped{job="fabscope-fabric"})');
    // The directions Prometheus holds a current rate of (the collectors' own, per sweep).
    const recorded = await promql(
      `count(max by (node_guid, port) (last_over_time(fabscope_link_utilization_ratio[${Math.max(5, (3 * promIntervalMs) / 1000)}s])))`,
    );
    const metrics = await (await fetch(new URL('/metrics', demo.prometheusUrl))).text();
    const promRss = Number(/^process_resident_memory_bytes (\S+)$/m.exec(metrics)?.[1] ?? Number.NaN);
    console.log(
      `${scenario} prometheus live ${(liveMs / 1000).toFixed(0)} s at ${promIntervalMs} ms: ${polls} polls; ` +
        `scrape ${scrape[0]?.toFixed(1)} s (slowest shard), ${samples[0]} samples per scrape, ` +
        `${recorded[0]} directions current; /health + /summary median ${median(answerMs).toFixed(0)} ms`,
    );
    console.log(
      `health over ${polls} polls: ${[...statuses].map(([k, n]) => `${k} ${n}`).join(', ')}; ` +
        `API ticks ${sampler.tickCount - ticksBefore} computed, ${sampler.skippedTicks - skippedBefore} skipped (interval ${sampler.intervalMs} ms); ` +
        `/health + /summary max ${Math.max(...answerMs).toFixed(0)} ms; /links?limit=100 ${rankedMs.toFixed(0)} ms`,
    );
    for (const r of ruleSeconds)
      console.log(`rule group ${r.labels.replace(/.*;/, '')}: last evaluation ${r.value.toFixed(3)} s`);
    for (const q of queryQuantiles) console.log(`Prometheus query ${q.labels}: ${q.value.toFixed(3)} s`);
    report("Prometheus' peak resident memory (sampled every poll)", promRssPeak / 2 ** 20, 'MiB');
    report('prometheus polls with health degraded', degraded, 'polls', 0);
    report('prometheus polls with the host transmit rate unknown', unknownRate, 'polls', 0);
    report('prometheus newest-sample age (max)', Math.max(...ages), 's', undefined, 1);
    // The figure for the live view: newest data at most two intervals and one scrape old.
    const ageLimitS = (2 * promIntervalMs) / 1000 + (scrape[0] ?? 0);
    report(
      `prometheus polls with data older than 2 intervals + one scrape (${ageLimitS.toFixed(1)} s)`,
      ages.filter((a) => a > ageLimitS).length,
      'polls',
      0,
    );
    report('prometheus host-link directions with unknown utilization', unknown, 'directions', 0);
    report("Prometheus' own resident memory", promRss / 2 ** 20, 'MiB');
  } finally {
    await demo.stop();
  }
  report(
    'peak RSS of the whole demo process (Prometheus apart)',
    process.resourceUsage().maxRSS / 1024,
    'MiB',
    limits?.rssMiB,
  );
}
