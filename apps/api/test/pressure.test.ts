import { buildScenario } from '@fabscope/topology';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LinkIndex } from '../src/lib/link-index.ts';
import { emptyPortRates } from '../src/lib/port-rates.ts';
import { Sampler } from '../src/sampler.ts';
import type { MetricsStore } from '../src/store/types.ts';
import { buildTestApp } from './helper.ts';

const fabric = buildScenario('ar-demo');
const index = new LinkIndex(fabric);
const store: MetricsStore = {
  kind: 'embedded',
  rates: async () => ({
    timeMs: Date.now(),
    ok: true,
    lastSampleAgeSeconds: 0,
    ports: new Map([...index.portKeys].map((key) => [key, { ...emptyPortRates(), linkUp: true }])),
  }),
  close: async () => {},
};

/** Holds the event loop for `ms` (what a stalled tick or a huge synchronous answer does). */
function holdLoop(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until) {
    // busy
  }
}

describe('expensive routes under pressure', () => {
  let app: Awaited<ReturnType<typeof buildTestApp>>;
  let base: string;
  beforeAll(async () => {
    const sampler = new Sampler(store, index, 60_000);
    // The start's own figures (two sample intervals) are not load: the clock is moved past them.
    let skippedMs = 0;
    app = await buildTestApp({
      fabric,
      linkIndex: index,
      store,
      sampler,
      pressure: { maxEventLoopDelayMs: 200, retryAfterSeconds: 7, now: () => performance.now() + skippedMs },
    });
    await sampler.sample();
    await app.listen({ host: '127.0.0.1', port: 0 });
    base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}/api/v1`;
    skippedMs = 2500;
    // Until under-pressure has sampled the loop since the start's own lag (once a second).
    for (let i = 0; i < 100; i++) {
      const answer = await fetch(`${base}/links/export`);
      await answer.arrayBuffer();
      if (answer.status === 200) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }, 30_000);
  afterAll(() => app.close());

  it('refuses an export 503 with Retry-After, naming the event-loop delay, while /health answers', async () => {
    expect((await fetch(`${base}/links/export`)).status).toBe(200);
    // A loop held for 1.5 s: the delay sampled when it is free again (once a second) is far past
    // 200 ms until the next sample; an export asked meanwhile is refused.
    holdLoop(1500);
    let refused: Response | undefined;
    for (let i = 0; i < 30 && refused === undefined; i++) {
      const answer = await fetch(`${base}/links/export`);
      if (answer.status === 503) refused = answer;
      else {
        await answer.arrayBuffer();
        holdLoop(1500);
      }
    }
    if (refused === undefined) throw new Error('no export refused while the loop was held');
    expect(refused.headers.get('retry-after')).toBe('7');
    // Said in words: the delay measured, or that none could be (held through a whole sample).
    expect(((await refused.json()) as { message: string }).message).toMatch(
      /^the API is under pressure \((event-loop delay \d+ ms|event loop held through the last second)\)/,
    );
    const health = await fetch(`${base}/health`);
    expect(health.status).toBe(200);
    // Once the loop is free again, exports run.
    let status = 0;
    // Until under-pressure's next sample of the loop (once a second), a real measurement.
    for (let i = 0; i < 200 && status !== 200; i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      const again = await fetch(`${base}/links/export`);
      status = again.status;
      await again.arrayBuffer();
    }
    expect(status).toBe(200);
  }, 30_000);
});
