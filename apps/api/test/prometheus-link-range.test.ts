import { EDGE_SERIES } from '@fabscope/contracts/metrics';
import { buildScenario } from '@fabscope/topology';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LinkIndex } from '../src/lib/link-index.ts';
import { PrometheusTimeQueries } from '../src/store/prometheus-history.ts';
import type { PromqlClient, RangeSeries } from '../src/store/promql-client.ts';

const fabric = buildScenario('fat-tree-1152');
const index = new LinkIndex(fabric);
const START_MS = Date.UTC(2026, 10, 29, 8, 0, 0);

/** A value for a series at an instant, or none: some ports have gaps, some no series at all. */
function sampleAt(name: string, guid: string, port: string, t: number): number | null {
  const h = [...`${name}${guid}${port}`].reduce((a, c) => (a * 31 + c.charCodeAt(0)) >>> 0, t);
  if (h % 17 === 0) return null;
  return name === EDGE_SERIES.bytes ? (h % 1000) * 1e7 : (h % 100) / 100;
}

/**
 * A TSDB answering the two selector shapes linkRange writes (`node_guid="g",port="p"` and `node_guid=~"g1|g2",port="p"`)
 * from valueOf; it counts the queries.
 */
function fakeTsdb() {
  const ports = new Map<string, Set<string>>();
  for (const { fixed } of index.channels) {
    const guid = fabric.nodeByName.get(fixed.from.node)?.guid as string;
    ports.set(guid, (ports.get(guid) ?? new Set()).add(String(fixed.from.port)));
  }
  const asked: string[] = [];
  const client = {
    queryRange: async (
      promql: string,
      fromMs: number,
      toMs: number,
      stepMs: number,
    ): Promise<RangeSeries[]> => {
      asked.push(promql);
      const name = promql.includes(EDGE_SERIES.bytes) ? EDGE_SERIES.bytes : EDGE_SERIES.wait;
      const port = /port="(\d+)"/.exec(promql)?.[1] as string;
      const guids = (/node_guid=~?"([^"]*)"/.exec(promql)?.[1] ?? '').split('|');
      return guids
        .filter((guid) => ports.get(guid)?.has(port) && sampleAt(name, guid, port, -1) !== null)
        .map((guid) => {
          const values: [number, string][] = [];
          for (let t = fromMs; t <= toMs; t += stepMs) {
            const v = sampleAt(name, guid, port, t);
            if (v !== null) values.push([t / 1000, String(v)]);
          }
          return { metric: { node_guid: guid, port }, values };
        });
    },
  };
  return { client: client as unknown as PromqlClient, asked };
}

describe("Prometheus' history of many link directions at once", () => {
  it('answers what one query per direction answers, in a query per port number and group of nodes', async () => {
    const ids = index.channels.map((c) => c.fixed.id);
    await fc.assert(
      fc.asyncProperty(fc.shuffledSubarray(ids, { minLength: 16, maxLength: 250 }), async (asked) => {
        const tsdb = fakeTsdb();
        const queries = new PrometheusTimeQueries(tsdb.client, index, { scrapeIntervalMs: 10_000 });
        const range = { fromMs: START_MS, toMs: START_MS + 300_000, stepMs: 10_000 };
        const many = await queries.linkRange([...asked, 'nope/1->nope/2'], range);
        const ports = new Set(asked.map((id) => index.channelById.get(id)?.fixed.from.port));
        expect(tsdb.asked.length).toBeLessThanOrEqual(2 * ports.size * Math.ceil(asked.length / 200));
        const one = await Promise.all(asked.map(async (id) => (await queries.linkRange([id], range))[0]));
        expect(many.slice(0, -1)).toEqual(one);
        expect(
          many.at(-1)?.points.every((p) => p.utilization === null && p.transmitWaitFraction === null),
        ).toBe(true);
      }),
      { numRuns: 10 },
    );
  });
});
