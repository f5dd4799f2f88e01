import { buildScenario } from '@fabscope/topology';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildAppWithEmulator } from './helper.ts';

interface Flow {
  id: string;
  from: string;
  to: string;
  path: string[];
}

// The API against a real emulator: /route reports the path a flow actually takes.
describe('/api/v1/route follows the traffic', () => {
  const fabric = buildScenario('ar-demo');
  let app: FastifyInstance;
  let stop: (() => Promise<void>) | undefined;

  beforeAll(async () => {
    ({ app, stop } = await buildAppWithEmulator(fabric));
  });
  afterAll(async () => {
    await stop?.();
  });

  const get = async (url: string) => (await app.inject(`/api/v1${url}`)).json();
  const send = (method: 'POST' | 'PUT', url: string, payload: object) =>
    app.inject({ method, url: `/api/v1${url}`, payload });

  it('without traffic: the tables’ route; with a static flow: its path, no static beside it', async () => {
    const before = await get('/route?from=nodeA&to=nodeC');
    expect(before.source).toBe('tables');
    expect(before.static).toBeUndefined();
    await send('POST', '/traffic', {
      pattern: 'pairs',
      pairs: [
        ['nodeA', 'nodeC'],
        ['nodeB', 'nodeD'],
      ],
      job: 'seed',
    });
    const route = await get('/route?from=nodeA&to=nodeC');
    expect(route.source).toBe('flow');
    expect(route.links).toEqual(before.links);
    expect(route.static).toBeUndefined();
    // Every hop that sends carries the live load fields (unknown here: no collector runs).
    for (const hop of route.hops.slice(0, -1)) expect(hop).toHaveProperty('utilization', null);
  });

  it('with adaptive routing on: the route is the flow’s actual path, the static one beside it', async () => {
    const statics = new Map<string, string[]>(
      ((await get('/traffic')).flows as Flow[]).map((f) => [`${f.from}>${f.to}`, f.path]),
    );
    expect(
      (await send('PUT', '/adaptive-routing', { enabled: true, arFrequency: 0, threshold: 0 })).statusCode,
    ).toBe(200);
    // Poll until adaptive routing has moved one of the two flows off the shared ISL (a listing of
    // the flows is shared for up to a second while none starts or stops: poll for seconds).
    let moved: Flow | undefined;
    for (let i = 0; i < 100 && !moved; i++) {
      const flows = (await get('/traffic')).flows as Flow[];
      moved = flows.find((f) => f.path.join() !== statics.get(`${f.from}>${f.to}`)?.join());
      if (!moved) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(moved).toBeDefined();
    const flow = moved as Flow;
    // /route reads the flows once per sampling tick (flow-paths.ts): the moved path shows within a
    // tick or two. The flow may move again meanwhile; the answer is then the newer path.
    let route = await get(`/route?from=${flow.from}&to=${flow.to}`);
    let now = flow;
    for (let i = 0; i < 100; i++) {
      now = ((await get('/traffic')).flows as Flow[]).find((f) => f.id === flow.id) as Flow;
      if ([flow.path.join(), now.path.join()].includes(route.links.join())) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
      route = await get(`/route?from=${flow.from}&to=${flow.to}`);
    }
    expect([flow.path.join(), now.path.join()]).toContain(route.links.join());
    expect(route).toMatchObject({ source: 'flow', flowId: flow.id });
    expect(route.static.links).toEqual(statics.get(`${flow.from}>${flow.to}`));
    expect(route.hops.map((h: { node: string }) => h.node)).toEqual([
      flow.from,
      ...route.links.map((l: string) => l.split('->')[1]?.split('/')[0]),
    ]);
    expect(route.links).not.toEqual(route.static.links);
  });
});
