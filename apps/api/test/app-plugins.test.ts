import { buildForwardingTables, buildScenario, fatTreeRouting } from '@fabscope/topology';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { LinkIndex } from '../src/lib/link-index.ts';
import { jobsPlugin } from '../src/plugins/app/jobs.ts';
import type { LiveFabric } from '../src/plugins/app-source.ts';
import { Sampler } from '../src/sampler.ts';
import { EmbeddedStore } from '../src/store/embedded.ts';

// The application's decorators (src/plugins/): what routes read, and the order plugins need.
describe('the app’s decorator plugins', () => {
  it('routes read the fabric decorator per request: what a follower replaces is seen by the next request', async () => {
    const before = buildScenario('ar-demo');
    const linkIndex = new LinkIndex(before);
    const store = new EmbeddedStore({ targets: ['http://127.0.0.1:9/metrics'] });
    const live: LiveFabric = { fabric: before, tables: fatTreeRouting(before), linkIndex };
    const app = await buildApp({
      state: { fabric: live, store, sampler: new Sampler(store, linkIndex), emulator: null },
      listenHost: '127.0.0.1',
    });
    try {
      const ask = async (url: string) => (await app.inject(`/api/v1${url}`)).statusCode;
      const urls = [
        '/analysis?pattern=pairs:node01-node02',
        `/links/flows?id=${encodeURIComponent('node01/1->switch1/1')}`,
        '/port?node=node01',
      ];
      for (const url of urls) expect({ url, status: await ask(url) }).toEqual({ url, status: 404 });
      // As DrawnFabric swaps a re-discovered fabric in (topology-live/drawn-fabric.ts).
      const after = buildScenario('single-switch-32');
      live.tables = buildForwardingTables(after, 'minhop');
      live.fabric = after;
      live.linkIndex = new LinkIndex(after);
      for (const url of urls) expect({ url, status: await ask(url) }).toEqual({ url, status: 200 });
    } finally {
      await app.close();
      await store.close();
    }
  });

  it('a plugin registered without the plugins it declares it needs fails at start, naming them', async () => {
    const app = Fastify();
    await expect(app.register(jobsPlugin, {} as never).ready()).rejects.toThrow(/fabric/);
  });
});
