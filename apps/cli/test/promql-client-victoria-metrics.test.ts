import { PromqlClient, QueryGate } from '@fabscope/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from './eventually.ts';
import { startVictoriaMetrics, type VictoriaMetricsServer } from './victoria-metrics.ts';

// A real VictoriaMetrics that runs one search at a time and lets a search wait 100 ms for it
// (`-search.maxConcurrentRequests=1 -search.maxQueueDuration=100ms`; a site's 2-core one: 4 and
// 10 s), holding 20,000 series, so a search takes tens of milliseconds: the API's client sending a
// tick's worth of queries at once is refused with VictoriaMetrics' own words, and within the bound
// never is.

const SERIES = 20_000;
const QUERY = 'sum(max_over_time(fabscope_test_gauge[10m]) * 2)';

describe('the PromQL client against a VictoriaMetrics over its search limit', () => {
  let vm: VictoriaMetricsServer;
  beforeAll(async () => {
    vm = await startVictoriaMetrics({
      extraArgs: ['-search.maxConcurrentRequests=1', '-search.maxQueueDuration=100ms'],
    });
    const now = Date.now();
    const lines: string[] = [];
    for (let s = 0; s < SERIES; s++)
      for (let k = 0; k < 5; k++)
        lines.push(`fabscope_test_gauge{s="${s}"} ${s + k} ${now - (4 - k) * 10_000}`);
    const imported = await fetch(`${vm.url}/api/v1/import/prometheus`, {
      method: 'POST',
      body: lines.join('\n'),
    });
    expect(imported.status).toBe(204);
    await eventually(async () => {
      const [total] = await new PromqlClient({ url: vm.url }).query(
        `count(last_over_time(fabscope_test_gauge[10m]))`,
      );
      expect(total?.value[1]).toBe(String(SERIES));
    }, 30_000);
  }, 60_000);
  afterAll(async () => {
    await vm?.stop();
  });

  const tick = (gate: QueryGate) => {
    const client = new PromqlClient({ url: vm.url, timeoutMs: 30_000, gate });
    return Promise.allSettled(Array.from({ length: 12 }, () => client.query(QUERY)));
  };

  it('twelve at once: refused with 503 and VictoriaMetrics’ words, not its echo of the request', async () => {
    // Rounds until one is refused (the first normally is): whether a search outlasts the queue is
    // the machine's timing.
    let refused: PromiseRejectedResult[] = [];
    for (let round = 0; round < 5 && refused.length === 0; round++)
      refused = (await tick(new QueryGate(12))).filter(
        (a): a is PromiseRejectedResult => a.status === 'rejected',
      );
    expect(refused.length).toBeGreaterThan(0);
    for (const r of refused) {
      expect((r.reason as Error).message).toMatch(
        /^PromQL \/api\/v1\/query answered HTTP 503: cannot handle more than 1 concurrent search requests during 100ms; possible solutions: increase `-search.maxQueueDuration`/,
      );
    }
  }, 60_000);

  it('the same twelve one at a time through the bound: every one answered', async () => {
    for (let round = 0; round < 3; round++) {
      const answers = await tick(new QueryGate(1));
      expect(answers.map((a) => a.status)).toEqual(Array(12).fill('fulfilled'));
    }
  }, 60_000);
});
