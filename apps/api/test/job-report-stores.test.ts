import { EDGE_SERIES } from '@fabscope/contracts/metrics';
import { buildScenario, fatTreeRouting } from '@fabscope/topology';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { InvalidRequestError } from '../src/errors.ts';
import type { Job } from '../src/jobs/job.ts';
import { jobFabricReport } from '../src/jobs/report/job-fabric-report.ts';
import { LinkIndex } from '../src/lib/link-index.ts';
import { gather } from '../src/routes/jobs/report/report-inputs.ts';
import { EmbeddedTimeQueries } from '../src/store/embedded-history.ts';
import { PLANNED_POINTS_PER_QUERY } from '../src/store/prometheus-columns.ts';
import { PrometheusTimeQueries } from '../src/store/prometheus-history.ts';
import { readMatrix } from '../src/store/prometheus-matrix.ts';
import { PromqlClient } from '../src/store/promql-client.ts';
import type { TimeQueries } from '../src/store/time-queries.ts';
import { unknownStates } from './job-report/unknown-states.ts';
import { recordStates, summarize } from './oracles/object-path.ts';

const fabric = buildScenario('fat-tree-1152');
const index = new LinkIndex(fabric);
const tables = fatTreeRouting(fabric);
const INTERVAL_MS = 1000;
const START_MS = Date.UTC(2026, 10, 29, 8, 0, 0);
const FRAMES = 40;
const hosts = fabric.nodes.filter((n) => n.type === 'host').map((n) => n.name);

/** The embedded store with FRAMES frames of every direction: values of their own, some unknown, two gaps. */
function embeddedStore() {
  const queries = new EmbeddedTimeQueries(
    {
      onScrape: () => () => undefined,
      rates: async () => ({ timeMs: 0, ok: true, lastSampleAgeSeconds: 0, ports: new Map() }),
      staleAfterMs: () => 2.5 * INTERVAL_MS,
    },
    index,
    { intervalMs: INTERVAL_MS },
  );
  const states = unknownStates(index);
  for (let f = 0; f < FRAMES; f++) {
    // One frame missing (held over), then eight (beyond the staleness: unknown).
    if (f === 6 || (f >= 20 && f < 28)) continue;
    for (const [c, s] of states.entries()) {
      const h = (c * 104_729 + f * 7919) % 1000;
      s.utilization = h % 13 === 0 ? null : h / 1000;
      s.bytesPerSecond = s.utilization === null ? null : s.utilization * s.capacityBytesPerSecond;
      s.transmitWaitFraction = h % 11 === 0 ? null : (h % 250) / 1000;
    }
    const timeMs = START_MS + f * INTERVAL_MS;
    recordStates(queries.history, index, timeMs, states, summarize(index, states, timeMs));
  }
  return queries;
}

/** Built once for every test here (40 frames of a fabric of 1,152 hosts). */
const embedded = embeddedStore();

const bySender = new Map(
  index.channels.map(({ fixed }) => [
    `${fabric.nodeByName.get(fixed.from.node)?.guid}/${fixed.from.port}`,
    fixed.id,
  ]),
);

/**
 * Prometheus' HTTP API over what `embedded` holds: a query_range of `max by (node_guid, port)
 * (last_over_time(NAME{node_guid=~"…",port=~"…"}[…]))` answers, in the API's JSON, every matched port the store has a
 * value for, at each step where it has one (as the collector's series would hold it). Counts the queries.
 */
function tsdbOver(embedded: TimeQueries) {
  const asked: string[] = [];
  const fetchImpl = async (_url: URL, init: RequestInit) => {
    const form = new URLSearchParams(String(init.body));
    const query = form.get('query') as string;
    asked.push(query);
    const name = query.includes(EDGE_SERIES.bytes) ? EDGE_SERIES.bytes : EDGE_SERIES.wait;
    const guids = new Set((/node_guid=~"([^"]*)"/.exec(query)?.[1] ?? '').split('|'));
    const ports = new Set((/port=~?"([^"]*)"/.exec(query)?.[1] ?? '').split('|'));
    const matched = [...bySender].filter(([key]) => {
      const [guid, port] = key.split('/') as [string, string];
      return guids.has(guid) && ports.has(port);
    });
    const [fromMs, toMs] = [Number(form.get('start')) * 1000, Number(form.get('end')) * 1000];
    const stepMs = Number(form.get('step')) * 1000;
    const series = await embedded.linkRange(
      matched.map(([, id]) => id),
      { fromMs, toMs, stepMs },
    );
    const result = series.flatMap(({ points }, k) => {
      const [key] = matched[k] as [string, string];
      const [guid, port] = key.split('/');
      const known = points
        .map(
          (p) => [p.timeMs, name === EDGE_SERIES.bytes ? p.bytesPerSecond : p.transmitWaitFraction] as const,
        )
        .filter((tv): tv is readonly [number, number] => tv[1] !== null);
      if (known.length === 0) return [];
      const values = known.map(([t, v]) => `[${t / 1000},"${v}"]`);
      // A second collector's series of the port, lower: the store takes the highest, as `max by` would.
      const lower = known.filter(([t]) => t % 3000 === 0).map(([t, v]) => `[${t / 1000},"${v / 2}"]`);
      const labels = `"node_guid":"${guid}","port":"${port}"`;
      return [
        `{"metric":{"__name__":"${name}",${labels}},"values":[${values}]}`,
        `{"metric":{${labels},"instance":"b"},"values":[${lower}]}`,
      ];
    });
    const body = `{"status":"success","data":{"resultType":"matrix","result":[${result.join(',')}]}}`;
    return new Response(body, { headers: { 'content-type': 'application/json' } });
  };
  const client = new PromqlClient({
    url: 'http://tsdb.test:9090',
    fetch: fetchImpl as unknown as typeof fetch,
  });
  const prometheus = new PrometheusTimeQueries(client, index, {
    scrapeIntervalMs: INTERVAL_MS,
    staleAfterSeconds: 2.5,
  });
  return { prometheus, asked };
}

describe('a job report through Prometheus and from the embedded store, on the same data', () => {
  it("Prometheus' columns are the embedded store's, in two queries per group of ports", async () => {
    const ids = index.channels.map((c) => c.fixed.id);
    await fc.assert(
      fc.asyncProperty(
        fc.shuffledSubarray(ids, { minLength: 1, maxLength: 60 }),
        fc.constantFrom(1000, 2000, 3000),
        async (asked, stepMs) => {
          // The TSDB holds every direction: a query's port matcher reads some not asked, which are left out.
          const tsdb = tsdbOver(embedded);
          const range = { fromMs: START_MS - 2000, toMs: START_MS + (FRAMES + 2) * INTERVAL_MS, stepMs };
          const wanted = [...asked, 'nowhere/1->elsewhere/1'];
          const expected = await embedded.linkColumns(wanted, range);
          const columns = await tsdb.prometheus.linkColumns(wanted, range);
          expect(columns).toEqual(expected);
          expect(tsdb.asked.length).toBe(2);
        },
      ),
      { numRuns: 4 },
    );
  });

  it('the same report of a job: figures, culprits, verdict and evidence', async () => {
    const jobOf = (i: number): Job => ({
      id: String(1000 + i),
      name: `job${i}`,
      user: null,
      state: 'COMPLETED',
      nodes: hosts.slice(i * 48 + 5, i * 48 + 37),
      startTime: new Date(START_MS).toISOString(),
      endTime: new Date(START_MS + FRAMES * INTERVAL_MS).toISOString(),
    });
    const jobs = [0, 1, 2].map(jobOf);
    const tsdb = tsdbOver(embedded);
    const reportFrom = async (queries: TimeQueries) => {
      const app = {
        fabric: { fabric, tables, linkIndex: index },
        jobs: { flowsNow: async () => [] },
        timeTravel: { require: () => queries },
        events: null,
        adaptiveRouting: { get: async () => ({ available: false, reason: 'static routing (the test)' }) },
      } as unknown as Parameters<typeof gather>[0];
      const window = { fromMs: START_MS, toMs: START_MS + FRAMES * INTERVAL_MS, asked: false };
      return jobFabricReport(await gather(app, jobs[1] as Job, jobs, window));
    };
    // The Prometheus store's own events (link state, resets) are none here: the embedded store derives none either.
    const prometheus = Object.assign(Object.create(tsdb.prometheus), { events: async () => [] });
    const [fromEmbedded, fromPrometheus] = [await reportFrom(embedded), await reportFrom(prometheus)];
    expect(fromEmbedded.directionsTotal).toBeGreaterThan(30);
    expect(fromEmbedded.directions.some((d) => d.utilization.max !== null)).toBe(true);
    expect(fromPrometheus).toEqual(fromEmbedded);
  });

  it('refuses a history longer than a query is planned for, naming the limit, before asking', async () => {
    const { prometheus, asked } = tsdbOver(embedded);
    const id = index.channels[0]?.fixed.id as string;
    const range = { fromMs: START_MS, toMs: START_MS + PLANNED_POINTS_PER_QUERY * 1000, stepMs: 1000 };
    const refused = prometheus.linkColumns([id], range);
    await expect(refused).rejects.toThrow(InvalidRequestError);
    await expect(refused).rejects.toThrow('400,000 points a query');
    expect(asked).toEqual([]);
  });

  it("says the TSDB's refusal in its own words", async () => {
    const refusing = new PromqlClient({
      url: 'http://tsdb.test:9090',
      fetch: (async () =>
        new Response(
          '{"status":"error","errorType":"execution","error":"query processing would load too many samples into memory in query execution"}',
          { status: 422 },
        )) as unknown as typeof fetch,
    });
    const queries = new PrometheusTimeQueries(refusing, index, { scrapeIntervalMs: INTERVAL_MS });
    const range = { fromMs: START_MS, toMs: START_MS + 60_000, stepMs: 1000 };
    await expect(queries.linkColumns([index.channels[0]?.fixed.id as string], range)).rejects.toThrow(
      'PromQL /api/v1/query_range answered HTTP 422: query processing would load too many samples',
    );
  });

  it('reads an answer of more points than its limit as an error naming the limit, a bad one naming where', () => {
    const series = (n: number) =>
      `{"metric":{"port":"1"},"values":[${Array.from({ length: n }, (_, i) => `[${1e9 + i}.5,"${i}"]`)}]}`;
    const answer = `{"status":"success","data":{"resultType":"matrix","result":[${series(3)},${series(3)}]}}`;
    const read: number[][] = [];
    readMatrix(
      answer,
      (s) => read.push([...s.timesMs.subarray(0, s.count), ...s.values.subarray(0, s.count)]),
      6,
    );
    expect(read[0]).toEqual([1e12 + 500, 1e12 + 1500, 1e12 + 2500, 0, 1, 2]);
    // The same answer with whitespace (a proxy pretty-printing it) reads the same.
    const spaced: number[][] = [];
    readMatrix(
      JSON.stringify(JSON.parse(answer), null, 2),
      (s) => spaced.push([...s.timesMs.subarray(0, s.count), ...s.values.subarray(0, s.count)]),
      6,
    );
    expect(spaced).toEqual(read);
    expect(() => readMatrix(answer, () => undefined, 5)).toThrow('more than 5 points to one query');
    expect(() => readMatrix(answer.replace('"values":[[', '"values":[{'), () => undefined, 6)).toThrow(
      /not a query_range matrix at offset \d+: expected \[/,
    );
  });
});
